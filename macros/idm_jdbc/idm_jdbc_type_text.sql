{% macro idm_jdbc_type_text(data_type) %}
    {#- How a quarantine reason names a declared type: "valid Base64 text of a binary value"
        for binary (the driver logs bytes as Base64), else "a valid <type>". -#}
    {%- if not data_type -%}
        {{ exceptions.raise_compiler_error("idm_jdbc_type_text: data_type is required") }}
    {%- endif -%}
    {%- if data_type | lower == 'binary' -%}
        {{ return('valid Base64 text of a binary value') }}
    {%- endif -%}
    {{ return('a valid ' ~ data_type | lower) }}
{%- endmacro %}
