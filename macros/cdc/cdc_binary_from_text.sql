{% macro cdc_binary_from_text(expression, encoding) %}
    {#- The bytes a binary value's landed text holds, read with its column's encoding
        (cdc_column_encoding) and only that one; NULL when the text is not valid in it, so the
        caller quarantines the value (cdc_binary_text_error). hex: pairs of hex digits (an odd
        count is not bytes; Spark's unhex would pad it); base64: try_to_binary. -#}
    {%- if not expression -%}
        {{ exceptions.raise_compiler_error("cdc_binary_from_text: expression is required") }}
    {%- endif -%}
    {%- if encoding == 'hex' -%}
        case
            when {{ expression }} rlike '^([0-9A-Fa-f]{2})*$' then unhex({{ expression }})
        end
    {%- elif encoding == 'base64' -%}
        try_to_binary({{ expression }}, 'base64')
    {%- else -%}
        {{ exceptions.raise_compiler_error(
            "cdc_binary_from_text: encoding must be hex or base64, got '" ~ encoding ~ "'") }}
    {%- endif -%}
{%- endmacro %}
