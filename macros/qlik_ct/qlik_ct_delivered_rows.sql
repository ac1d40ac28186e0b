{% macro qlik_ct_delivered_rows(table_name, layout, files_filter) %}
    {#- CTEs of stage_qlik_change_table, ending in `delivered`: the landed change-table rows
        this run stages, one per distinct row. Incremental: a row that is an exact copy of
        a staged one (same change_seq, change_oper and row_hash) is not staged again; one
        with a staged (change_seq, change_oper) but other content is staged with
        conflicts_with_staged, and judged invalid. Landed files (qlik_ct_landing: files):
        each row records its file (landed_file, landed_file_modified_at), and only files not
        staged yet under that path and modification time are read (`files_filter`,
        qlik_ct_unstaged_files_filter), so the cost follows the new files. A
        rewritten file is read again; its rows already staged are skipped. Only files that
        stg_qlik_ct__landed_files found readable are read (cdc_landing_files_filter). A CSV
        record the reader could not split into the table's fields (layout.malformed_column)
        is matched by its raw text too (qlik_ct_row_hash), so a re-delivered copy is not
        staged twice. -#}
    {%- set prefix = cdc_history.cdc_var('qlik_ct_header_prefix') -%}
    {%- set data_names = layout.data_columns | map(attribute='name') | list -%}
source as (

    select
        landed.*,
        {{ cdc_history.cdc_landed_file_columns('qlik_ct') }}
    from {{ source('qlik_ct', table_name ~ '__ct') }} as landed
    where
        {{ files_filter }}

),

new_rows as (

    {# a row whose (change_seq, change_oper) is staged already is matched with the staged
       rows' hashes: an exact copy is not staged again, another row is a late conflicting
       duplicate, staged to be quarantined. Only staged rows at the landed rows'
       change_seqs are read (a broadcast semi join), so the cost follows the new rows #}
    select
        source.*,
        {%- if is_incremental() %}
        staged.staged_hashes
        {%- else %}
        cast(null as array<bigint>) as staged_hashes
        {%- endif %}
    from source
    {%- if is_incremental() %}
    left join (
        select
            staged.raw_key,
            collect_set(staged.row_hash) as staged_hashes
        from {{ this }} as staged
        where
            staged.order_key is null
            or staged.order_key in (
                select landed_keys.{{ prefix }}change_seq from source as landed_keys
            )
        group by staged.raw_key
    ) as staged
        on staged.raw_key = concat_ws(
            '+',
            coalesce(source.{{ prefix }}change_seq, ''),
            coalesce(source.{{ prefix }}change_oper, '')
        )
    {%- endif %}

),

hashed as (

    select
        new_rows.* except (staged_hashes),
        {{ cdc_history.qlik_ct_row_hash(layout, 'new_rows') }} as row_hash,
        new_rows.staged_hashes,
        named_struct(
            {%- for name in layout.header_columns + data_names
                + ([layout.malformed_column] if layout.malformed_column else []) %}
            {{ cdc_history.sql_string_literal(name) }}, new_rows.{{ name }}{{ ',' if not loop.last }}
            {%- endfor %}
        ) as landed_row
    from new_rows

),

ranked as (

    {# copies of one row are adjacent in (row_hash, file) order within their key #}
    select
        hashed.*,
        lag(hashed.landed_row) over (
            partition by
                hashed.{{ prefix }}change_seq, hashed.{{ prefix }}change_oper
            order by
                hashed.row_hash, hashed.landed_file, hashed.landed_file_modified_at
        ) as previous_landed_row
    from hashed
    where not coalesce(array_contains(hashed.staged_hashes, hashed.row_hash), false)

),

{# duplicated delivery: exact copies of one row collapse to one (the first file kept);
   rows are compared whole, so equal hashes of different rows never merge them #}
delivered as (

    select
        ranked.* except (
            landed_file, landed_file_modified_at, landed_row, previous_landed_row,
            staged_hashes
        ),
        ranked.staged_hashes is not null as conflicts_with_staged,
        named_struct(
            'file', ranked.landed_file, 'modified_at', ranked.landed_file_modified_at
        ) as landed
    from ranked
    where not coalesce(ranked.previous_landed_row <=> ranked.landed_row, false)

),
{%- endmacro %}
