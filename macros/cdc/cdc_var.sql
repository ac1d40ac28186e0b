{% macro cdc_var(name, default='__cdc_no_default__') %}
    {#- var(name) as every macro of this package reads it, the same from a node of ours and
        from a node of a user's project: the value the calling node's project sets (a root
        project's overrides ours), else this package's default (cdc_var_defaults, generated
        from our dbt_project.yml), else, for a format's setting <system>_<setting>, the
        default in the format's registry entry (cdc_format_setting_default: the registry the
        project uses, so a user's format declares its settings in its own entry), else
        `default` when given (none included). A node of a user's project sees only that
        project's vars, so without the fallbacks our macros would find no var the user left
        at its default. -#}
    {%- set defaults = cdc_history.cdc_var_defaults() -%}
    {%- if name in defaults -%}
        {{ return(var(name, defaults[name])) }}
    {%- endif -%}
    {%- set setting = cdc_history.cdc_format_setting_default(name) -%}
    {%- if setting -%}
        {{ return(var(name, setting[0])) }}
    {%- elif default != '__cdc_no_default__' -%}
        {{ return(var(name, default)) }}
    {%- endif -%}
    {{ return(var(name)) }}
{% endmacro %}
