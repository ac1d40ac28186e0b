{% macro cdc_validate_format_hooks() %}
    {#- For every registered format, its registry entry's hooks against its macros, both
        ways: each declared hook is a macro <system>_<hook>, and each macro of that form
        for a hook (cdc_format_hook_names) is declared, since the shared macros call only
        declared hooks (cdc_format_hook): a misspelt or forgotten declaration would
        otherwise leave the format's code out without a word. Called by
        cdc_validate_config, from a model or a hook, whose context holds every macro (a
        generic test's holds only the macros its own calls reach). -#}
    {%- set systems = cdc_history.cdc_var('cdc_source_systems', {}) -%}
    {%- for source_system in (systems if systems is mapping else {}) -%}
        {%- set hooks = cdc_history.cdc_source_system_config(source_system).get('hooks', []) -%}
        {%- set where = "cdc_validate_format_hooks: var cdc_source_systems." ~ source_system -%}
        {%- for hook in cdc_history.cdc_format_hook_names() -%}
            {%- set defined = cdc_history.cdc_macro_named(source_system ~ '_' ~ hook) is not none -%}
            {%- if hook in hooks and not defined -%}
                {{ exceptions.raise_compiler_error(
                    where ~ ".hooks declares " ~ hook ~ ", but no macro " ~ source_system
                    ~ "_" ~ hook ~ " exists") }}
            {%- elif defined and hook not in hooks -%}
                {{ exceptions.raise_compiler_error(
                    where ~ ": the macro " ~ source_system ~ "_" ~ hook ~ " is a hook the "
                    ~ "shared macros call only when declared: add " ~ hook ~ " to its hooks") }}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
{% endmacro %}
