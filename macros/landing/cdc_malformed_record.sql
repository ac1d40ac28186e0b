{% macro cdc_malformed_record(relation, malformed_column) -%}
    {#- The landed record a reader could not parse, as text: `relation`'s corrupt-record
        column (cdc_landing_malformed_column), or NULL when the landing has none. -#}
    {%- if malformed_column -%}
    {{ relation }}.{{ malformed_column }}
    {%- else -%}
    cast(null as string)
    {%- endif -%}
{%- endmacro %}
