{% macro sql_string_array(values) %}
    {#- array('a', 'b', ...) of string literals; array() typed array<string> when empty. -#}
    {%- if values | length == 0 -%}
        cast(array() as array<string>)
    {%- else -%}
        array({{ cdc_history.sql_string_list(values) }})
    {%- endif -%}
{% endmacro %}
