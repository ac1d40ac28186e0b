{% macro full_snapshot_order_key(text, snapshot_id) %}
    {#- A snapshot's place in its table's order as 20 digits, from its id `text` (a SQL
        string expression), or NULL when the id names none (the caller quarantines the
        row): with snapshot_id `time` the time it names (full_snapshot_time) as
        yyyyMMddHHmmss and microseconds; with `version` the version number it is (digits,
        optionally after v or V, at most 20: 17, 0017, v17) left-padded with zeros, so
        versions sort as numbers (2 before 10). -#}
    {%- if snapshot_id == 'version' -%}
        {%- set pattern = '^[vV]?([0-9]{1,20})$' -%}
    case
        when {{ text }} rlike {{ cdc_history.sql_string_literal(pattern) }}
            then lpad(
                regexp_extract({{ text }}, {{ cdc_history.sql_string_literal(pattern) }}, 1), 20, '0'
            )
    end
    {%- else -%}
    date_format({{ cdc_history.full_snapshot_time(text) }}, 'yyyyMMddHHmmssSSSSSS')
    {%- endif -%}
{%- endmacro %}
