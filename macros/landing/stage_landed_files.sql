{% macro stage_landed_files(source_system, landed_tables) %}
    {#- The body of stg_<system>__landed_files: in files mode, one row per file of each landed
        folder, from the table function cdc_landed_files (python_udfs/landed_files.py; every
        folder in one query, cdc_landed_files_in_folders), with the problem that keeps it
        out of staging (NULL: read). Other landings have no files: no rows. A table: the
        list staging reads (see cdc_landing_files_filter), taken once per run. A landed
        name is text (a Kafka topic may be any folder name): it reaches SQL only as a
        string literal. In files mode its folders are config meta
        cdc_landed_locations: a run whose folders list the files the last write listed
        (cdc_landed_listing_digest) keeps the table as it is. Outside files mode it reads
        nothing (config meta cdc_reads_nothing), so a run keeps it as it is
        (cdc_table_fingerprint). -#}
    {%- set files_mode = cdc_history.cdc_var(source_system ~ '_landing') == 'files' -%}
    {%- if not files_mode -%}
        {{ config(meta={'cdc_reads_nothing': true}) }}
    {%- else -%}
        {%- set locations = [] -%}
        {%- for landed in landed_tables -%}
            {%- do locations.append(cdc_history.cdc_landing_location(source_system, landed)) -%}
        {%- endfor -%}
        {{ config(meta={'cdc_landed_locations': locations}) }}
    {%- endif -%}
with

landed_files as (
{{ cdc_history.cdc_landed_files_in_folders(source_system, landed_tables if files_mode else []) }}
),

final as (

    select
        landed_files.landed_table,
        landed_files.file_name,
        landed_files.file_path,
        landed_files.modified_at,
        landed_files.size_bytes,
        from_json(landed_files.column_list, 'array<array<string>>') as file_columns,
        landed_files.is_reference,
        landed_files.problem,
        landed_files.problem is null as is_read
    from landed_files

)

select * from final
{%- endmacro %}
