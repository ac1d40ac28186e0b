{% macro cdc_typed_value(expression, data_type, encoding=none) %}
    {#- A landed value as its column's declared type: a binary column's text decoded from
        `encoding` (the column's cdc_column_encoding, hex or base64: cdc_binary_from_text;
        none when it landed as binary, taken as is), a string column as text, any other
        type by try_cast. NULL when the value does not convert, so that the caller can
        name the column (a non-NULL value must never become NULL silently). Used by the
        IDM event log (its texts) and the full snapshots (their landed columns). -#}
    {%- if not expression or not data_type -%}
        {{ exceptions.raise_compiler_error(
            "cdc_typed_value: expression and data_type are required") }}
    {%- endif -%}
    {%- set data_type = data_type | lower -%}
    {%- if data_type == 'binary' and encoding -%}
        {{ cdc_history.cdc_binary_from_text(expression, encoding) }}
    {%- elif data_type == 'string' -%}
        cast({{ expression }} as string)
    {%- else -%}
        try_cast({{ expression }} as {{ data_type }})
    {%- endif -%}
{%- endmacro %}
