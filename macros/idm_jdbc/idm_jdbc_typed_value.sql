{% macro idm_jdbc_typed_value(expression, data_type, encoding='base64') %}
    {#- An event log text (a key value, old_value or new_value) as its column's declared type:
        binary from its text in `encoding` (the column's cdc_column_encoding: base64, as the
        driver logs bytes, or hex; cdc_binary_from_text), string as is, any other type by
        try_cast. NULL when the text does not convert, so that idm_jdbc_value_errors
        can name the column: a non-NULL text must never become NULL silently. -#}
    {%- if not expression or not data_type -%}
        {{ exceptions.raise_compiler_error(
            "idm_jdbc_typed_value: expression and data_type are required") }}
    {%- endif -%}
    {%- set data_type = data_type | lower -%}
    {%- if data_type == 'binary' -%}
        {{ cdc_binary_from_text(expression, encoding) }}
    {%- elif data_type == 'string' -%}
        {{ expression }}
    {%- else -%}
        try_cast({{ expression }} as {{ data_type }})
    {%- endif -%}
{%- endmacro %}
