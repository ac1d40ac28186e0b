{% macro register_landed_tables() %}
    {#- files mode: each configured Qlik table's landed folders
        <root>/<table>__ct/ and <root>/<table>/ become external tables in qlik_ct_schema,
        without copying. Rerunnable: existing registrations are refreshed so appended
        files are seen; a managed table of the same name is never replaced.
        First, in every mode, it checks var cdc_source_systems and var cdc_tables
        (cdc_validate_tables) and the vars used as identifiers (cdc_validate_vars): as an
        on-run-start hook it is rendered by every parse, so a bad entry stops any dbt
        command before anything runs. -#}
    {%- do cdc_validate_tables() -%}
    {%- do cdc_validate_vars() -%}
    {%- if execute and var('qlik_ct_landing') == 'files' -%}
        {%- set root = var('qlik_ct_landing_root') | trim -%}
        {%- set file_format = var('qlik_ct_landing_format') | lower -%}
        {%- if root == '' -%}
            {{ exceptions.raise_compiler_error(
                "register_landed_tables: qlik_ct_landing is 'files' but qlik_ct_landing_root "
                ~ "is empty; pass --vars '{qlik_ct_landing_root: /path/to/landing}'") }}
        {%- endif -%}
        {%- if file_format not in ['parquet', 'csv'] -%}
            {{ exceptions.raise_compiler_error(
                "register_landed_tables: qlik_ct_landing_format must be parquet or csv, got '"
                ~ file_format ~ "'") }}
        {%- endif -%}
        {%- set schema = cdc_identifier(var('qlik_ct_schema'), 'var qlik_ct_schema') -%}
        {%- do run_query('create schema if not exists ' ~ schema) -%}
        {%- for table_name in cdc_tables_of('qlik_ct') -%}
            {%- for landed in [table_name ~ '__ct', table_name] -%}
                {%- do register_external_table(
                    schema, landed, root.rstrip('/') ~ '/' ~ landed, file_format) -%}
            {%- endfor -%}
        {%- endfor -%}
    {%- endif -%}
    select 1 as landed_tables_registered
{% endmacro %}

{% macro register_external_table(schema, name, location, file_format) %}
    {%- set relation = schema ~ '.' ~ name -%}
    {%- set existing = adapter.get_relation(database=none, schema=schema, identifier=name) -%}
    {%- if existing is not none -%}
        {%- set details = run_query('describe table extended ' ~ relation) -%}
        {%- set kind = [] -%}
        {%- for row in details -%}
            {%- if row[0] == 'Type' -%}{%- do kind.append(row[1] | trim) -%}{%- endif -%}
        {%- endfor -%}
        {%- if kind and kind[0] != 'EXTERNAL' -%}
            {{ exceptions.raise_compiler_error(
                "register_external_table: " ~ relation ~ " exists as a " ~ kind[0]
                ~ " table; files mode will not replace it. Use another qlik_ct_schema.") }}
        {%- endif -%}
        {%- do run_query('drop table ' ~ relation) -%}
    {%- endif -%}
    {%- set options = "options (header 'true', mode 'PERMISSIVE')" if file_format == 'csv' else '' -%}
    {%- do run_query(
        'create table ' ~ relation ~ ' using ' ~ file_format ~ ' ' ~ options
        ~ ' location ' ~ sql_string_literal(location)) -%}
{% endmacro %}
