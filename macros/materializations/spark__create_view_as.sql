{% macro spark__create_view_as(relation, sql) -%}
    {#- dbt-spark's create_view_as (dbt-spark 1.11), with one addition: the view's
        fingerprint in its table properties when the view materialization hands it over
        (model['cdc_fingerprint_at_create']: a view without post-hooks, whose fingerprint
        can be stored by the statement that creates it; macros/materializations/view.sql),
        so that no second statement stores it. -#}
    {%- set fingerprint = model.get('cdc_fingerprint_at_create') -%}
    create or replace view {{ relation }}
    {% if config.persist_column_docs() -%}
        {% set model_columns = model.columns %}
        {% set query_columns = get_columns_in_query(sql) %}
        (
        {{ get_persist_docs_column_list(model_columns, query_columns) }}
        )
    {% endif %}
    {{ comment_clause() }}
    {%- if fingerprint %}
    tblproperties ('cdc.fingerprint' = {{ cdc_history.sql_string_literal(fingerprint) }})
    {%- endif %}
    {%- set contract_config = config.get('contract') -%}
    {%- if contract_config.enforced -%}
        {{ get_assert_columns_equivalent(sql) }}
    {%- endif %}
    as
    {{ sql }}
{%- endmacro %}
