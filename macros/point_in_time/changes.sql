{% macro changes(table_name) %}
    {#- The whole body of dim_<table>_changes: a view of the table's changes in the window
        (var changes_from, var changes_to] (quoted as literals; changes_from '', the default,
        is the first change, the full load included; changes_to 'latest'), each key's net
        effect when var changes_net is true (change_query), and, as post-hooks, the
        persistent table functions <schema>.<table>_changes(from_point STRING, to_point
        STRING) and <schema>.<table>_net_changes(from_point STRING, to_point STRING)
        (create_changes_function), so any window is a query, not a rebuild:
          select * from cdc.employees_changes('2024-03-01 12:00:00', 'latest');
        Disabled when the table is not in var cdc_tables. -#}
    {%- if table_name not in cdc_history.cdc_var('cdc_tables') -%}
        {{ config(enabled=false) }}
    {%- else -%}
    {#- the hooks stay Jinja until run time, when the table's columns are known -#}
    {%- set name = cdc_history.sql_string_literal(table_name) -%}
    {%- set hook = "{{ cdc_history.create_changes_function(" ~ name ~ ") }}" -%}
    {%- set net_hook = "{{ cdc_history.create_changes_function(" ~ name ~ ", net=true) }}" -%}
    {{ config(materialized='view', post_hook=[hook, net_hook]) }}
    {%- set net = cdc_history.cdc_var('changes_net') -%}
    {%- if net is not boolean -%}
        {{ exceptions.raise_compiler_error(
            "changes: var changes_net must be true or false, got " ~ net) }}
    {%- endif -%}
    {%- set from_point = cdc_history.cdc_var('changes_from') -%}
    {{ cdc_history.change_query(
        table_name,
        cdc_history.sql_string_literal(from_point) if from_point not in (none, '') else none,
        cdc_history.sql_string_literal(cdc_history.cdc_var('changes_to')),
        net=net) }}
    {%- endif -%}
{% endmacro %}
