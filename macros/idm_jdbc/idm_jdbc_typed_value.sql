{% macro idm_jdbc_typed_value(expression, data_type) %}
    {#- An event log text (a key value, old_value or new_value) as its column's declared type:
        binary from Base64 (try_to_binary, as the driver logs bytes), string as is, any other
        type by try_cast. NULL when the text does not convert, so that idm_jdbc_value_errors
        can name the column: a non-NULL text must never become NULL silently. -#}
    {%- if not expression or not data_type -%}
        {{ exceptions.raise_compiler_error(
            "idm_jdbc_typed_value: expression and data_type are required") }}
    {%- endif -%}
    {%- set data_type = data_type | lower -%}
    {%- if data_type == 'binary' -%}
        try_to_binary({{ expression }}, 'base64')
    {%- elif data_type == 'string' -%}
        {{ expression }}
    {%- else -%}
        try_cast({{ expression }} as {{ data_type }})
    {%- endif -%}
{%- endmacro %}
