{% macro cdc_call_format_macro(source_system, step, table_name) %}
    {#- Calls the hook <source_system>_<step>(table_name) that a source format provides and
        declares (cdc_format_hook; e.g. qlik_ct_change_images): how the shared per-table
        models reach a format's own code without naming it. Stops with a message when the
        format declares no such hook. -#}
    {%- set hook = cdc_history.cdc_format_hook(source_system, step) -%}
    {%- if hook is none -%}
        {{ exceptions.raise_compiler_error(
            "cdc_call_format_macro: source system '" ~ source_system ~ "' declares no hook "
            ~ step ~ " (its registry entry's hooks, with the macro " ~ source_system ~ "_"
            ~ step ~ "(table_name)), which this table needs "
            ~ "(docs/adding-a-source-format.md)") }}
    {%- endif -%}
    {{ return(hook(table_name)) }}
{% endmacro %}
