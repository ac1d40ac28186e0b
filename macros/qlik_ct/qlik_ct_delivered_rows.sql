{% macro qlik_ct_delivered_rows(table_name, layout) %}
    {#- CTEs of stage_qlik_change_table, ending in `delivered`: the landed change-table rows
        this run stages, one per distinct row. Incremental: only rows whose
        (change_seq, change_oper) is not staged yet. Landed files (qlik_ct_landing: files):
        each row records its file (landed_file, landed_file_modified_at), and only files not
        staged yet under that path and modification time are read (a filter on _metadata
        alone prunes whole files before they are read), so the cost follows the new files. A
        rewritten file is read again; its rows already staged are skipped. -#}
    {%- set prefix = var('qlik_ct_header_prefix') -%}
    {%- set data_names = layout.data_columns | map(attribute='name') | list -%}
    {%- set landed_files = var('qlik_ct_landing') == 'files' -%}
    {%- set staged_files = [] -%}
    {%- if landed_files and is_incremental() and execute -%}
        {%- set staged = run_query(
            "select distinct concat(landed_file, '@', cast(landed_file_modified_at as string))"
            ~ " from " ~ this ~ " where landed_file is not null") -%}
        {%- do staged_files.extend(staged.columns[0].values()) -%}
    {%- endif %}
source as (

    select
        landed.*,
        {% if landed_files -%}
        landed._metadata.file_path as landed_file,
        landed._metadata.file_modification_time as landed_file_modified_at
        {%- else -%}
        cast(null as string) as landed_file,
        cast(null as timestamp) as landed_file_modified_at
        {%- endif %}
    from {{ source('qlik_ct', table_name ~ '__ct') }} as landed
    {%- if staged_files %}
    where concat(
        landed._metadata.file_path, '@',
        cast(landed._metadata.file_modification_time as string)
    ) not in (
        {%- for file in staged_files %}
        {{ sql_string_literal(file) }}{{ ',' if not loop.last }}
        {%- endfor %}
    )
    {%- endif %}

),

new_rows as (

    select source.*
    from source
    {%- if is_incremental() %}
    left anti join {{ this }} as staged
        on staged.raw_key = concat_ws(
            '+',
            coalesce(source.{{ prefix }}change_seq, ''),
            coalesce(source.{{ prefix }}change_oper, '')
        )
    {%- endif %}

),

{# duplicated delivery: exact copies of one row collapse to one (the first file kept) #}
delivered as (

    select
        new_rows.* except (landed_file, landed_file_modified_at),
        min_by(
            named_struct(
                'file', new_rows.landed_file, 'modified_at', new_rows.landed_file_modified_at
            ),
            new_rows.landed_file
        ) as landed
    from new_rows
    group by
        {%- for name in layout.header_columns + data_names %}
        new_rows.{{ name }}{{ ',' if not loop.last }}
        {%- endfor %}

),
{%- endmacro %}
