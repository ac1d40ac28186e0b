{% macro cdc_cache_as_listed(relation) %}
    {#- The relation cache learns a table as the run's start would have listed it (`show
        table extended`: its type, properties and columns), replacing what it held: after
        a write that left it undescribed (a table rebuilt, an incremental model created or
        fully refreshed; dbt caches the written relation without its description), and
        after a landed folder's registration. The views that read it are fingerprinted by
        its columns (cdc_view_fingerprint), and the readers of its properties
        (cdc_relation_details) need no `describe`. One metastore call. -#}
    {%- set listed = run_query(
        'show table extended in ' ~ relation.schema
        ~ ' like ' ~ cdc_history.sql_string_literal(relation.identifier)) -%}
    {%- set cached = adapter.get_relation(
        database=relation.database, schema=relation.schema, identifier=relation.identifier) -%}
    {%- if cached is not none -%}
        {%- do adapter.cache_dropped(cached) -%}
    {%- endif -%}
    {%- do adapter.cache_added(api.Relation.create(
        database=relation.database, schema=relation.schema, identifier=relation.identifier,
        type='table', information=listed[0][3] if listed | length else none)) -%}
{% endmacro %}
