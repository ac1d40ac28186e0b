{% macro register_landed_tables() %}
    {#- files mode (var <system>_landing: files): each landed folder of a system with
        configured tables becomes an external table in <system>_schema: Qlik's
        <root>/<table>__ct/ and <root>/<table>/, IDM's <root>/<event log>/ and
        <root>/<snapshot_table>/, OpenEdge's <root>/<tracking table>/ and <root>/<change table>/,
        Qlik Kafka's <root>/<topic>/ per topic (as qlik_kafka_landed_table_name(topic): a
        topic may be any folder name), GoldenGate's <root>/<trail records>/ and
        <root>/<json messages>/ (each format's <system>_landed_tables()),
        without copying (register_landed_folder: the columns are those of the folder's
        reference file, CSV read with cdc_landing_reader_options; every folder's reference
        file found in one query a format, cdc_landed_reference_files). Rerunnable: existing
        registrations are refreshed so appended files are seen, except in a session that has
        read none of them yet (cdc_landed_tables_unread: the first command of a session
        cdc-dbt started); a managed table of the same name is never replaced.
        First, in every mode, it checks the configuration (cdc_validate_config, which the
        first model parsed has already run in a command that parses): a bad entry stops any
        dbt command before anything runs, run-operation included. -#}
    {%- do cdc_history.cdc_validate_config() -%}
    {%- if execute -%}
        {#- a session cdc-dbt started for this command has read no landed table: its
            unchanged registrations need no refresh (asked once, before anything is read) -#}
        {%- set refresh = not cdc_history.cdc_landed_tables_unread() -%}
        {#- a format lists its landed tables in <system>_landed_tables() -#}
        {%- set landed = {} -%}
        {%- for source_system in cdc_history.cdc_source_systems_enabled() -%}
            {%- set landed_tables = cdc_history.cdc_format_hook(source_system, 'landed_tables') -%}
            {%- if landed_tables is not none -%}
                {%- do landed.update({source_system: landed_tables}) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- for source_system in cdc_history.cdc_source_systems_enabled() if source_system in landed -%}
            {%- if cdc_history.cdc_var(source_system ~ '_landing') == 'files' -%}
                {%- set schema = cdc_history.cdc_identifier(
                    cdc_history.cdc_var(source_system ~ '_schema'), 'var ' ~ source_system ~ '_schema') -%}
                {%- do run_query('create schema if not exists ' ~ schema) -%}
                {#- a format whose folder names need not be identifiers (Kafka topics)
                    names their tables in <system>_landed_table_name(folder) -#}
                {%- set table_name_of = cdc_history.cdc_format_hook(source_system, 'landed_table_name') -%}
                {%- set names = landed[source_system]() -%}
                {%- set references = cdc_history.cdc_landed_reference_files(source_system, names) -%}
                {%- for name in names -%}
                    {%- do cdc_history.register_landed_folder(
                        source_system, schema, name,
                        table_name_of(name) if table_name_of is not none else name,
                        references, refresh) -%}
                {%- endfor -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
{% endmacro %}
