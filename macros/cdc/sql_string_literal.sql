{% macro sql_string_literal(value) %}
    {#- 'value' as a Spark SQL string literal: backslashes and single quotes escaped. -#}
    '{{ value | string | replace("\\", "\\\\") | replace("'", "\\'") }}'
{%- endmacro %}
