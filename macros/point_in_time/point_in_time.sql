{% macro point_in_time(table_name) %}
    {#- The whole body of dim_<table>_as_of: a view of the table at var('as_of') (default
        'latest'), and, as a post-hook, the persistent table function
        <schema>.<table>_as_of(point STRING) (create_as_of_function), so any point is a
        query, not a rebuild:  select * from cdc.employees_as_of('2024-03-01 12:05:00');
        and <schema>.<table>_as_of_consistent(point STRING), its transaction-consistent
        mode (only complete transactions, cdc_consistent_point).
        Disabled when the table is not in var cdc_tables. -#}
    {%- if table_name not in cdc_history.cdc_var('cdc_tables') -%}
        {{ config(enabled=false) }}
    {%- else -%}
    {#- the hook stays Jinja until run time, when the table's columns are known -#}
    {%- set name = cdc_history.sql_string_literal(table_name) -%}
    {%- set hook = "{{ cdc_history.create_as_of_function(" ~ name ~ ") }}" -%}
    {%- set consistent_hook = "{{ cdc_history.create_as_of_function(" ~ name ~ ", consistent=true) }}" -%}
    {{ config(materialized='view', post_hook=[hook, consistent_hook]) }}
    {#- the consistent function reads the format's transaction boundaries
        (cdc_consistent_point) #}
    -- depends_on: {{ ref('int_' ~ cdc_history.cdc_table_config(table_name).source_system ~ '__transaction_boundaries') }}
    {%- if cdc_history.cdc_table_config(table_name).get('bitemporal', false) %}
    {#- a bitemporal table's function reads its history as known then #}
    -- depends_on: {{ ref('dim_' ~ table_name ~ '_history_bitemporal') }}
    {%- endif %}
    {{ cdc_history.point_in_time_query(table_name, cdc_history.sql_string_literal(cdc_history.cdc_var('as_of'))) }}
    {%- endif -%}
{% endmacro %}
