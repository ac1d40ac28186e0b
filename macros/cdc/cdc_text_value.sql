{% macro cdc_text_value(expression, data_type) %}
    {#- The inverse of cdc_value_text: canonical text back to the column's type. -#}
    {%- if data_type | lower == 'binary' -%}
        unbase64({{ expression }})
    {%- elif data_type | lower == 'string' -%}
        {{ expression }}
    {%- else -%}
        cast({{ expression }} as {{ data_type }})
    {%- endif -%}
{% endmacro %}
