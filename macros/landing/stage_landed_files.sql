{% macro stage_landed_files(source_system, landed_tables) %}
    {#- The body of stg_<system>__landed_files: in files mode, one row per file of each landed
        folder, from the table function cdc_landed_files (python_udfs/landed_files.py), with
        the problem that keeps it out of staging (NULL: read). Other landings have no files:
        no rows. A table, rebuilt each run: it is the list staging reads (see
        cdc_landing_files_filter), taken once per run. A landed name is text (a Kafka topic
        may be any folder name): it reaches SQL only as a string literal. -#}
    {%- set files_mode = var(source_system ~ '_landing') == 'files' -%}
    {%- set options = cdc_landing_reader_options(source_system) -%}
with

{% if files_mode -%}
{% for landed in landed_tables -%}
folder_{{ loop.index }}_files as (

    select
        {{ sql_string_literal(landed) }} as landed_table,
        files.*
    from cdc_landed_files(
        {{ sql_string_literal(cdc_landing_location(source_system, landed)) }},
        {{ sql_string_literal(var(source_system ~ '_landing_format') | lower) }},
        {{ sql_string_literal(tojson(options)) }}
    ) as files

),

{% endfor -%}
{%- endif -%}
landed_files as (

    {% if files_mode -%}
    {% for landed in landed_tables -%}
    select * from folder_{{ loop.index }}_files
    {% if not loop.last %}union all{% endif %}
    {% endfor -%}
    {%- else -%}
    select
        cast(null as string) as landed_table,
        cast(null as string) as file_name,
        cast(null as string) as file_path,
        cast(null as timestamp) as modified_at,
        cast(null as bigint) as size_bytes,
        cast(null as string) as column_list,
        cast(null as boolean) as is_reference,
        cast(null as string) as problem
    where false
    {%- endif %}

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
