{#- Written by `cdc-dbt init`; do not edit (a newer `cdc-dbt init` may change it).
    dbt takes an override of its built-in materializations from the root project, not
    from a package, and generate_schema_name from the root project only: these
    wrappers hand each to the cdc_history package's own. -#}

{% materialization table, adapter='spark', supported_languages=['sql', 'python'] -%}
    {{ return(cdc_history.materialization_table_spark()) }}
{%- endmaterialization %}

{% materialization incremental, adapter='spark', supported_languages=['sql', 'python'] -%}
    {{ return(cdc_history.materialization_incremental_spark()) }}
{%- endmaterialization %}

{% materialization view, adapter='spark' -%}
    {{ return(cdc_history.materialization_view_spark()) }}
{%- endmaterialization %}

{% macro generate_schema_name(custom_schema_name, node) -%}
    {{ return(cdc_history.generate_schema_name(custom_schema_name, node)) }}
{%- endmacro %}
