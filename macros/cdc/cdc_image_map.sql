{% macro cdc_image_map(columns, relation_alias) %}
    {#- A typed row as the canonical text map (spec F.1: column -> text, binary as Base64),
        in column order; the inverse of cdc_text_value per column. -#}
    map(
        {%- for column in columns %}
        {{ cdc_history.sql_string_literal(column.name) }},
        {{ cdc_history.cdc_value_text(relation_alias ~ '.' ~ column.name, column.type) }}
        {{- ',' if not loop.last }}
        {%- endfor %}
    )
{%- endmacro %}
