{% macro qlik_ct_image_map(table_name, relation_alias) %}
    {#- The row image of a staged change-table row as the canonical map<string,string>
        (column -> text, spec F.1), in change-table column order. -#}
    {%- set layout = qlik_ct_layout(table_name) -%}
    map(
        {%- for column in layout.data_columns %}
        '{{ column.name }}',
        {{ cdc_value_text(relation_alias ~ '.' ~ column.name, column.type) }}
        {{- ',' if not loop.last }}
        {%- endfor %}
    )
{%- endmacro %}
