{% macro cdc_value_text(expression, data_type) %}
    {#- A typed value as the canonical text carried in the change log's maps (spec F.1):
        cast to string, except binary, which travels as Base64. -#}
    {%- if data_type | lower == 'binary' -%}
        base64({{ expression }})
    {%- else -%}
        cast({{ expression }} as string)
    {%- endif -%}
{% endmacro %}
