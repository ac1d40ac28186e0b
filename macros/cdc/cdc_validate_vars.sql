{% macro cdc_validate_vars() %}
    {#- Checks the vars that reach SQL as identifiers (cdc_identifier) and the bounds
        key_move_chain_limit (cdc_key_move_chain_limit) and cdc_tables_per_statement
        (cdc_tables_per_statement), at parse time, from
        cdc_validate_config: some are pasted where no macro can check them (sources YAML
        schema and identifier, seeds +schema). Values (task, driver, account, as_of) go
        through sql_string_literal where they are used instead. For every registered
        format, whether or not it has tables: its <system>_schema (the schema of its landed
        tables, pasted by its sources YAML), then its own vars through the hook
        <system>_validate_vars when the format provides one (qlik_ct_validate_vars,
        idm_jdbc_validate_vars), so this macro names no format. A format's landed table
        names are checked by its <system>_landed_tables (cdc_validate_config). -#}
    {%- set systems = cdc_history.cdc_var('cdc_source_systems', {}) -%}
    {%- for source_system in (systems if systems is mapping else {}) -%}
        {%- set schema_var = source_system ~ '_schema' -%}
        {%- if cdc_history.cdc_var(schema_var, none) is not none -%}
            {%- do cdc_history.cdc_identifier(cdc_history.cdc_var(schema_var), 'var ' ~ schema_var) -%}
        {%- endif -%}
        {%- set validate_vars = cdc_history.cdc_format_hook(source_system, 'validate_vars') -%}
        {%- if validate_vars is not none -%}
            {%- do validate_vars() -%}
        {%- endif -%}
    {%- endfor -%}
    {%- do cdc_history.cdc_key_move_chain_limit() -%}
    {%- do cdc_history.cdc_tables_per_statement() -%}
{% endmacro %}
