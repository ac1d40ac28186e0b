{% macro cdc_validate_vars() %}
    {#- Checks the vars that reach SQL as identifiers (cdc_identifier) and the bound
        key_move_chain_limit (cdc_key_move_chain_limit), at parse time, from
        cdc_validate_config: some are pasted where no macro can
        check them (sources YAML schema and identifier, seeds +schema). Values (task, driver,
        account, as_of) go through sql_string_literal where they are used instead.
        qlik_ct_header_prefix may be empty: what must be an identifier is
        <prefix>change_seq. Every registered format's <system>_schema (the schema of its
        landed tables, pasted by its sources YAML), whether or not it has tables; a format's
        landed table names are checked by its <system>_landed_tables (cdc_validate_config). -#}
    {%- set names = [] -%}
    {%- set systems = var('cdc_source_systems', {}) -%}
    {%- for source_system in (systems if systems is mapping else {}) -%}
        {%- if var(source_system ~ '_schema', none) is not none -%}
            {%- do names.append(source_system ~ '_schema') -%}
        {%- endif -%}
    {%- endfor -%}
    {%- for name in names + ['idm_jdbc_event_log'] -%}
        {%- do cdc_identifier(var(name), 'var ' ~ name) -%}
    {%- endfor -%}
    {%- do cdc_identifier(
        var('qlik_ct_header_prefix') ~ 'change_seq', 'var qlik_ct_header_prefix + change_seq') -%}
    {%- set event_log_columns = var('idm_jdbc_columns') -%}
    {%- if event_log_columns is not mapping -%}
        {{ exceptions.raise_compiler_error(
            "cdc_validate_vars: var idm_jdbc_columns must map each event log column to its "
            ~ "name in the landed table") }}
    {%- endif -%}
    {%- for column, name in event_log_columns.items() -%}
        {%- do cdc_identifier(name, 'var idm_jdbc_columns.' ~ column) -%}
    {%- endfor -%}
    {%- do cdc_key_move_chain_limit() -%}
{% endmacro %}
