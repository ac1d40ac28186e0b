{% macro cdc_pk_map(key_columns, image) %}
    {#- The canonical key map (spec F.1 pk): key column -> text value, in key order, taken from
        a row-image map expression. -#}
    map(
        {%- for name in key_columns %}
        {{ cdc_history.sql_string_literal(name | lower) }},
        {{ image }}[{{ cdc_history.sql_string_literal(name | lower) }}]{{ ',' if not loop.last }}
        {%- endfor %}
    )
{%- endmacro %}
