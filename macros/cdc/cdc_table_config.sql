{% macro cdc_table_config(table_name) %}
    {#- One table's entry in var cdc_tables, checked. -#}
    {%- set tables = var('cdc_tables') -%}
    {%- if table_name not in tables -%}
        {{ exceptions.raise_compiler_error(
            "cdc_table_config: table '" ~ table_name ~ "' is not in var cdc_tables ("
            ~ (tables.keys() | sort | join(', ')) ~ ")") }}
    {%- endif -%}
    {%- set table = tables[table_name] -%}
    {%- if not table.get('key_columns') -%}
        {{ exceptions.raise_compiler_error(
            "cdc_table_config: table '" ~ table_name ~ "' needs key_columns (in key order)") }}
    {%- endif -%}
    {{ return(table) }}
{% endmacro %}
