{% macro cdc_landed_files_kept_out(source_system, source_table='cast(null as string)') %}
    {#- A select of int_<source_system>__rows_quarantined: one quarantine row per landed
        file that stg_<source_system>__landed_files kept out (not is_read), its problem as
        the reason and the file's facts as the record. source_table: a SQL expression over
        `landed_files` (default NULL: the file's table is not known from its folder). -#}
    select
        {{ cdc_history.sql_string_literal(source_system) }} as source_system,
        {{ source_table }} as source_table,
        landed_files.landed_table,
        landed_files.file_name as raw_key,
        cast(null as string) as order_key,
        concat('landed file kept out: ', landed_files.problem) as reason,
        to_json(named_struct(
            'file_path', landed_files.file_path,
            'modified_at', landed_files.modified_at,
            'size_bytes', landed_files.size_bytes,
            'file_columns', landed_files.file_columns
        )) as record_json,
        cast(null as timestamp) as loaded_at
    from {{ ref('stg_' ~ source_system ~ '__landed_files') }} as landed_files
    where not landed_files.is_read
{%- endmacro %}
