{% macro cdc_set_table_properties(relation, properties) %}
    {#- The statement that sets table properties (keys and values as quoted literals). -#}
    {%- set pairs = [] -%}
    {%- for key, value in properties.items() -%}
        {%- do pairs.append(cdc_history.sql_string_literal(key) ~ ' = ' ~ cdc_history.sql_string_literal(value)) -%}
    {%- endfor -%}
    {{ return('alter table ' ~ relation ~ ' set tblproperties (' ~ pairs | join(', ') ~ ')') }}
{% endmacro %}
