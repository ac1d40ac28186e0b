{% macro point_in_time(table_name) %}
    {#- The whole body of dim_<table>_as_of: a view of the table at var('as_of') (default
        'latest'), and, as a post-hook, the persistent table function
        <schema>.<table>_as_of(point STRING) (create_as_of_function), so any point is a
        query, not a rebuild:  select * from cdc.employees_as_of('2024-03-01 12:05:00')
        Disabled when the table is not in var cdc_tables. -#}
    {%- if table_name not in var('cdc_tables') -%}
        {{ config(enabled=false) }}
    {%- else -%}
    {#- the hook stays Jinja until run time, when the table's columns are known -#}
    {%- set hook = "{{ create_as_of_function(" ~ sql_string_literal(table_name) ~ ") }}" -%}
    {{ config(materialized='view', post_hook=[hook]) }}
    {{ point_in_time_query(table_name, sql_string_literal(var('as_of'))) }}
    {%- endif -%}
{% endmacro %}
