{% macro full_snapshot_time(text) %}
    {#- The time a snapshot id names, as a timestamp (UTC), from its text (a SQL string
        expression): a date, then optionally a time, with or without separators:
        2024-03-01, 20240301, 2024-03-01T10:42:00, 2024-03-01 10:42:00.5,
        20240301T104200, 20240301104200, 2024-03-01T10-42-00Z (a file name cannot hold
        ':'). NULL when the text is not one of these or not a real time (2024-02-30),
        so the caller quarantines the row. A timestamp column's value cast to text reads
        as itself. -#}
    {%- set pattern = '^([0-9]{4})-?([0-9]{2})-?([0-9]{2})'
        ~ '(?:[T _]?([0-9]{2})[-:]?([0-9]{2})(?:[-:]?([0-9]{2})(?:[.]([0-9]{1,6}))?)?)?Z?$' -%}
    case
        when {{ text }} rlike {{ cdc_history.sql_string_literal(pattern) }}
            then try_to_timestamp(
                concat(
                    regexp_extract({{ text }}, {{ cdc_history.sql_string_literal(pattern) }}, 1), '-',
                    regexp_extract({{ text }}, {{ cdc_history.sql_string_literal(pattern) }}, 2), '-',
                    regexp_extract({{ text }}, {{ cdc_history.sql_string_literal(pattern) }}, 3), ' ',
                    coalesce(nullif(
                        regexp_extract({{ text }}, {{ cdc_history.sql_string_literal(pattern) }}, 4), ''), '00'), ':',
                    coalesce(nullif(
                        regexp_extract({{ text }}, {{ cdc_history.sql_string_literal(pattern) }}, 5), ''), '00'), ':',
                    coalesce(nullif(
                        regexp_extract({{ text }}, {{ cdc_history.sql_string_literal(pattern) }}, 6), ''), '00'), '.',
                    rpad(regexp_extract({{ text }}, {{ cdc_history.sql_string_literal(pattern) }}, 7), 6, '0')
                ),
                'yyyy-MM-dd HH:mm:ss.SSSSSS'
            )
    end
{%- endmacro %}
