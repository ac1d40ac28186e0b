{% macro cdc_format_hook(source_system, hook) %}
    {#- The macro <source_system>_<hook> when the format declares `hook` in its registry
        entry's hooks (cdc_validate_format_hooks has checked that the macro exists), else
        none: how a shared macro reaches a format's own code without naming it. A
        generic test's context holds only the macros its own calls reach: a declared hook
        outside them stops with a message rather than being taken for absent. -#}
    {%- if hook not in cdc_history.cdc_source_system_config(source_system).get('hooks', []) -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set name = source_system ~ '_' ~ hook -%}
    {%- set hook_macro = cdc_history.cdc_macro_named(name) -%}
    {%- if hook_macro is none -%}
        {{ exceptions.raise_compiler_error(
            "cdc_format_hook: the hook " ~ name ~ " is declared but not reachable here (a "
            ~ "generic test sees only the macros its own calls reach)") }}
    {%- endif -%}
    {{ return(hook_macro) }}
{% endmacro %}
