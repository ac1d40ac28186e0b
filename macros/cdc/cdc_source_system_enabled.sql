{% macro cdc_source_system_enabled(source_system) %}
    {#- True when var cdc_tables names a table of `source_system`: every model and seed of a
        format is enabled by it (`{{ config(enabled=cdc_source_system_enabled('qlik_ct')) }}`),
        so a project without that format's tables builds nothing of it. -#}
    {{ return(source_system in cdc_history.cdc_source_systems_enabled()) }}
{% endmacro %}
