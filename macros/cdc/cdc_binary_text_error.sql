{% macro cdc_binary_text_error(column_name, encoding, subject='value') %}
    {#- The quarantine reason, shared by every format, for a binary value whose landed text
        is not valid in its column's encoding (cdc_column_encoding): "<subject> of <column>
        is not valid hex text of a binary value" (base64: "valid Base64 text"). Returns
        plain text; callers make it a literal (sql_string_literal). -#}
    {%- if not column_name -%}
        {{ exceptions.raise_compiler_error("cdc_binary_text_error: column_name is required") }}
    {%- endif -%}
    {%- set labels = {'hex': 'hex', 'base64': 'Base64'} -%}
    {%- if encoding not in labels -%}
        {{ exceptions.raise_compiler_error(
            "cdc_binary_text_error: encoding must be hex or base64, got '" ~ encoding ~ "'") }}
    {%- endif -%}
    {{ return(subject ~ ' of ' ~ column_name ~ ' is not valid ' ~ labels[encoding]
              ~ ' text of a binary value') }}
{%- endmacro %}
