{% macro cdc_validate_tables() %}
    {#- Checks the whole configuration, stopping at the first problem: every source system
        in var cdc_source_systems (cdc_source_system_config), then every table in var
        cdc_tables, in the order written (cdc_table_config; cdc_history_options when the
        table declares its columns). Called from the on-run-start
        hook register_landed_tables, which dbt renders while parsing: a bad entry stops
        `dbt parse`, `dbt build` and every other command before anything runs. -#}
    {%- set systems = cdc_history.cdc_var('cdc_source_systems', none) -%}
    {%- if systems is not mapping -%}
        {%- do cdc_history.cdc_source_system_config(none) -%}
    {%- endif -%}
    {%- for system in systems -%}
        {%- do cdc_history.cdc_source_system_config(system) -%}
    {%- endfor -%}
    {%- set tables = cdc_history.cdc_var('cdc_tables', none) -%}
    {%- if tables is not mapping -%}
        {{ exceptions.raise_compiler_error(
            "cdc_validate_tables: var cdc_tables must map each table name to its settings") }}
    {%- endif -%}
    {%- for table_name in tables -%}
        {%- set table = cdc_history.cdc_table_config(table_name) -%}
        {#- history options against declared columns now; against a format's own columns
            (e.g. the Qlik DDL) when the table's models compile -#}
        {%- if table.get('columns') -%}
            {%- do cdc_history.cdc_history_options(table_name, cdc_history.cdc_table_columns(table_name)) -%}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}
