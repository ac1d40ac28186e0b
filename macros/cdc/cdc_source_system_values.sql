{% macro cdc_source_system_values() %}
    {#- Every source_system value a log row may carry, from the format registry (var
        cdc_source_systems): each registered format's source_system_values, default its own
        name (GoldenGate writes ogg_trail and ogg_json), in registry order. The log's data
        test accepts these and no other (fct_cdc_changes, "source_system accepted"), so a new
        format adds its values by registering, not by editing the test. -#}
    {%- set values = [] -%}
    {%- for source_system in cdc_history.cdc_var('cdc_source_systems', {}) -%}
        {%- for value in cdc_history.cdc_source_system_config(source_system).get(
                'source_system_values', [source_system]) if value not in values -%}
            {%- do values.append(value) -%}
        {%- endfor -%}
    {%- endfor -%}
    {{ return(values) }}
{% endmacro %}
