{% macro cdc_call_format_macro(source_system, step, table_name) %}
    {#- Calls the macro <source_system>_<step>(table_name) that a source format provides
        (e.g. qlik_ct_change_images): how the shared per-table models reach a format's own
        code without naming it. Stops with a message when the format lacks the macro. -#}
    {%- set name = source_system ~ '_' ~ step -%}
    {%- if name not in context -%}
        {{ exceptions.raise_compiler_error(
            "cdc_call_format_macro: source system '" ~ source_system ~ "' has no macro "
            ~ name ~ "(table_name); every registered format provides it "
            ~ "(docs/adding-a-source-format.md)") }}
    {%- endif -%}
    {{ return(context[name](table_name)) }}
{% endmacro %}
