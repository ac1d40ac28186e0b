{% macro depends_on_landing_seed(landed_table, source_system) %}
    {#- With the shipped samples (var <source_system>_landing: seeds) a source table is a
        seed: tell dbt, so `dbt build` loads the seed before the staging model that reads
        the source. -#}
    {%- if cdc_history.cdc_var(source_system ~ '_landing') == 'seeds' -%}
        -- depends_on: {{ ref(landed_table) }}
    {%- endif -%}
{% endmacro %}
