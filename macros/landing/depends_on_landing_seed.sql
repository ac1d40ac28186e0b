{% macro depends_on_landing_seed(landed_table) %}
    {#- With the shipped samples (qlik_ct_landing: seeds) a source table is a seed: tell dbt, so
        `dbt build` loads the seed before the staging model that reads the source. -#}
    {%- if var('qlik_ct_landing') == 'seeds' -%}
        -- depends_on: {{ ref(landed_table) }}
    {%- endif -%}
{% endmacro %}
