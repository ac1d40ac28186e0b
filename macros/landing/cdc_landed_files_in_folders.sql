{% macro cdc_landed_files_in_folders(source_system, landed_tables) %}
    {#- A select of every file in the landed folders of `landed_tables` (names under var
        <system>_landing_root): landed_table, location, then the columns of the table
        function cdc_landed_files (python_udfs/landed_files.py). One call of the function per
        folder, laterally over a VALUES list of the folders: Spark evaluates it in one task
        per core, where a union of one call per folder ran one task per folder (60 folders
        0.4 s against 7 to 18 s; BENCHMARKS.md section 21). Names and locations reach SQL
        only as string literals. No landed tables: no rows, the same columns. -#}
    {%- set file_format = cdc_history.sql_string_literal(cdc_history.cdc_var(source_system ~ '_landing_format') | lower) -%}
    {%- set options = cdc_history.sql_string_literal(tojson(cdc_history.cdc_landing_reader_options(source_system))) -%}
    {%- if landed_tables | length == 0 %}
    select
        cast(null as string) as landed_table,
        cast(null as string) as location,
        cast(null as string) as file_name,
        cast(null as string) as file_path,
        cast(null as timestamp) as modified_at,
        cast(null as bigint) as size_bytes,
        cast(null as string) as column_list,
        cast(null as boolean) as is_reference,
        cast(null as string) as problem
    where false
    {%- else %}
    select
        folders.landed_table,
        folders.location,
        files.file_name,
        files.file_path,
        files.modified_at,
        files.size_bytes,
        files.column_list,
        files.is_reference,
        files.problem
    from
        values
        {%- for landed in landed_tables %}
            ({{ cdc_history.sql_string_literal(landed) }}, {{ cdc_history.sql_string_literal(
                cdc_history.cdc_landing_location(source_system, landed)) }}){{ ',' if not loop.last }}
        {%- endfor %}
        as folders (landed_table, location),
        lateral cdc_landed_files(folders.location, {{ file_format }}, {{ options }}) as files
    {%- endif %}
{%- endmacro %}
