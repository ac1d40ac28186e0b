{% macro cdc_validate_config() %}
    {#- Checks the whole configuration, once per dbt command, stopping at the first problem:
        var cdc_source_systems and var cdc_tables (cdc_validate_tables), each format's
        declared hooks against its macros (cdc_validate_format_hooks), the vars that reach
        SQL as identifiers or bounds (cdc_validate_vars), and each enabled format's landing
        settings: its mode, root and file format (cdc_validate_landing), its reader options
        (cdc_landing_reader_options) and its landed tables
        (<system>_landed_tables, e.g. the Kafka topics). cdc_table_config and
        cdc_source_systems_enabled call it first, and every model calls one of them while dbt
        parses, so a bad entry stops `dbt parse` and every other command at the first model
        parsed, before anything connects or runs; the on-run-start hook
        register_landed_tables calls it too. Remembered in the command's memo
        (cdc_invocation_memo), set before checking because the checks call
        cdc_table_config: so it runs once while dbt parses and once more when the command
        executes (dbt builds a new `graph` for execution), never once per model. -#}
    {%- set memo = cdc_history.cdc_invocation_memo() -%}
    {%- if memo.get('config_validated') -%}
        {{ return(none) }}
    {%- endif -%}
    {%- do memo.update({'config_validated': true}) -%}
    {%- do cdc_history.cdc_validate_tables() -%}
    {%- do cdc_history.cdc_validate_format_hooks() -%}
    {%- do cdc_history.cdc_validate_vars() -%}
    {%- for source_system in cdc_history.cdc_source_systems_enabled() -%}
        {%- do cdc_history.cdc_validate_landing(source_system) -%}
        {%- do cdc_history.cdc_landing_reader_options(source_system) -%}
        {%- set landed_tables = cdc_history.cdc_format_hook(source_system, 'landed_tables') -%}
        {%- if landed_tables is not none -%}
            {%- do landed_tables() -%}
        {%- endif -%}
    {%- endfor -%}
{% endmacro %}
