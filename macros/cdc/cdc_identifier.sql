{% macro cdc_identifier(name, what) %}
    {#- `name` unchanged when cdc_is_identifier(name); otherwise stops, naming `what` (for
        example "var qlik_ct_schema"). For configured names pasted into SQL as identifiers:
        `from {{ cdc_identifier(cdc_var('qlik_ct_schema'), 'var qlik_ct_schema') }}.x`. -#}
    {%- if not what -%}
        {{ exceptions.raise_compiler_error("cdc_identifier: what is required") }}
    {%- endif -%}
    {%- if not cdc_history.cdc_is_identifier(name) -%}
        {{ exceptions.raise_compiler_error(
            "cdc_identifier: " ~ what ~ " is '" ~ name ~ "', which is not an "
            ~ "identifier (^[A-Za-z_][A-Za-z0-9_]*$); it reaches SQL as an identifier") }}
    {%- endif -%}
    {{ return(name) }}
{% endmacro %}
