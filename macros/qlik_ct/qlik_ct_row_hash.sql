{% macro qlik_ct_row_hash(layout, relation_alias) %}
    {#- A 64-bit hash of a landed change-table row, every column of the layout
        (qlik_ct_layout) in DDL order: tells exact duplicate deliveries from conflicting
        ones. -#}
    {%- set names = layout.header_columns + (layout.data_columns | map(attribute='name') | list) -%}
    xxhash64(
        {%- for name in names %}
        {{ relation_alias }}.{{ name }}{{ ',' if not loop.last }}
        {%- endfor %}
    )
{%- endmacro %}
