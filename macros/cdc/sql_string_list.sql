{% macro sql_string_list(values) %}
    {#- 'a', 'b', ...: the values as string literals, comma-separated, for `in (...)` and
        `array(...)`; empty text when there are none. -#}
    {%- for value in values -%}
        {{ cdc_history.sql_string_literal(value) }}{{ ', ' if not loop.last }}
    {%- endfor -%}
{% endmacro %}
