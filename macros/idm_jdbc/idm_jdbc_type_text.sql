{% macro idm_jdbc_type_text(data_type) %}
    {#- How a quarantine reason names a declared type other than binary: "a valid <type>"
        (a binary value's reason is cdc_binary_text_error's, as in every format). -#}
    {%- if not data_type -%}
        {{ exceptions.raise_compiler_error("idm_jdbc_type_text: data_type is required") }}
    {%- endif -%}
    {{ return('a valid ' ~ data_type | lower) }}
{%- endmacro %}
