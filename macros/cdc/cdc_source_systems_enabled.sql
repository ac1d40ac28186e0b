{% macro cdc_source_systems_enabled() %}
    {#- The registered source systems (var cdc_source_systems) that var cdc_tables names,
        sorted: the systems whose models are enabled and whose canonical models the change
        log and the quarantine union. Checks the configuration first (cdc_validate_config,
        once a command): every format's models are enabled by this while dbt parses. -#}
    {%- do cdc_history.cdc_validate_config() -%}
    {%- set configured = cdc_history.cdc_var('cdc_tables').values() | map(attribute='source_system') | list -%}
    {%- set systems = [] -%}
    {%- for system in cdc_history.cdc_var('cdc_source_systems').keys() | sort -%}
        {%- if system in configured -%}{%- do systems.append(system) -%}{%- endif -%}
    {%- endfor -%}
    {{ return(systems) }}
{% endmacro %}
