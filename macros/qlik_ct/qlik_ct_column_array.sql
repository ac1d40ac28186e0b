{% macro qlik_ct_column_array(table_name) %}
    {#- array('<data column>', ...) of a Qlik table, in change-table order. -#}
    {%- set names = qlik_ct_layout(table_name).data_columns | map(attribute='name') | list -%}
    {{ sql_string_array(names) }}
{%- endmacro %}
