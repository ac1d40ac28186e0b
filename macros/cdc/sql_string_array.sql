{% macro sql_string_array(values) %}
    {#- array('a', 'b', ...) of string literals; array() typed array<string> when empty. -#}
    {%- if values | length == 0 -%}
        cast(array() as array<string>)
    {%- else -%}
        array({% for value in values %}{{ sql_string_literal(value) }}{{ ', ' if not loop.last }}{% endfor %})
    {%- endif -%}
{% endmacro %}
