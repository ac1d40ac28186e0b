{% macro cdc_format_setting_default(name) %}
    {#- The default of a format's setting, read by its var name <system>_<setting> (e.g.
        qlik_ct_landing): [value] from the `settings` of the registry entry whose name is
        the longest <system> that `name` starts with followed by '_' (var
        cdc_source_systems, the project's registry or else ours), or [] when no registered
        format has that setting. cdc_var calls it for every var it finds no package default
        of; the var itself, when set, overrides the default. -#}
    {%- set systems = var('cdc_source_systems', cdc_history.cdc_var_defaults()['cdc_source_systems']) -%}
    {%- set found = [] -%}
    {%- set longest = [''] -%}
    {%- if systems is mapping and name is string -%}
        {%- for system in systems
              if system is string and name.startswith(system ~ '_')
                 and system | length > longest[-1] | length -%}
            {%- set entry = systems[system] -%}
            {%- set settings = entry.get('settings') if entry is mapping else none -%}
            {%- set setting = name[(system | length) + 1:] -%}
            {%- if settings is mapping and setting in settings -%}
                {%- do longest.append(system) -%}
                {%- do found.append(settings[setting]) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(found[-1:]) }}
{% endmacro %}
