{% macro xds_source_schema(table_name) %}
    {#- The schema of an IDM table, as its XDS association names it (spec C.5): its
        source_schema in var cdc_tables; NULL for a table not declared there. table_name
        is a string SQL expression, matched exactly as the event log names the table. -#}
    {%- if table_name is none -%}
        {{ exceptions.raise_compiler_error("xds_source_schema: table_name is required") }}
    {%- endif -%}
    {%- set tables = cdc_history.cdc_tables_of('idm_jdbc') -%}
    {%- if tables -%}
    case {{ table_name }}
        {%- for name in tables %}
        when {{ cdc_history.sql_string_literal(name) }}
            then {{ cdc_history.sql_string_literal(cdc_history.cdc_table_config(name).get('source_schema', '')) }}
        {%- endfor %}
    end
    {%- else -%}
    cast(null as string)
    {%- endif -%}
{%- endmacro %}
