{% macro qlik_ct_changes_paired(table_name) %}
    {#- One Qlik table's changes paired, a query that int_qlik_ct__changes_logged
        writes for each table it writes (a CTE of its own, not a view node: one
        node a table fewer to build, and the log plans the same scans): one row
        per valid I/U/D/TRUNCATE change-table row with its before-image beside it
        (the B row with the same change_seq, seed 000's left outer join, spec
        A.3/A.7), then the table's valid full-load rows as snapshot rows
        (is_snapshot) at order_key 000...0. Row images become column -> text
        maps, so every table has one shape. An error when the table is not a
        qlik_ct table of var cdc_tables. -#}
    {%- if table_name not in cdc_history.cdc_tables_of('qlik_ct') -%}
        {{ exceptions.raise_compiler_error(
            'qlik_ct_changes_paired: ' ~ table_name ~ ' is not a qlik_ct table of var cdc_tables') }}
    {%- endif -%}
    {%- set key_columns = cdc_history.cdc_key_columns(table_name) -%}
    {%- set data_columns = cdc_history.qlik_ct_layout(table_name).data_columns -%}
    {%- set column_names = data_columns | map(attribute='name') | list -%}
with

change_rows as (

    select
        staged.source_table,
        staged.raw_key,
        staged.order_key,
        staged.change_seq_at,
        staged.change_oper,
        staged.is_truncate,
        staged.transaction_id,
        staged.stream_position,
        staged.op_ts,
        staged.changed_columns,
        staged.flags,
        staged.loaded_at,
        {{ cdc_history.cdc_image_map(data_columns, 'staged') }} as row_image
    from {{ cdc_history.qlik_ct_staged_rows(table_name) }} as staged
    where staged.is_valid

),

paired as (

    select
        change_rows.*,
        {{ cdc_history.sql_string_array(column_names) }} as present_columns,
        {{ cdc_history.cdc_pk_string(key_columns, "change_rows.row_image['{column}']") }}
            as pk_string,
        {{ cdc_history.cdc_pk_map(key_columns, 'change_rows.row_image') }} as pk,
        before_images.row_image as before_image_row,
        {{ cdc_history.cdc_pk_string(key_columns, "before_images.row_image['{column}']") }}
            as before_image_pk_string,
        {{ cdc_history.cdc_pk_map(key_columns, 'before_images.row_image') }}
            as before_image_pk,
        exists(
            change_rows.changed_columns,
            column_name -> array_contains(
                {{ cdc_history.sql_string_array(key_columns) }}, column_name
            )
        ) as mask_sets_key_bits,
        false as is_snapshot
    from change_rows
    left join change_rows as before_images
        on
            change_rows.order_key = before_images.order_key
            and before_images.change_oper = 'B'
    where change_rows.change_oper is null or change_rows.change_oper != 'B'

),

full_load as (

    select
        staged.source_table,
        {{ cdc_history.cdc_image_map(data_columns, 'staged') }} as row_image,
        {{ cdc_history.cdc_pk_string(key_columns, "cast(staged.{column} as string)") }}
            as pk_string
    from {{ ref('stg_qlik_ct__' ~ table_name ~ '_baseline') }} as staged
    where staged.is_valid

),

snapshot as (

    select
        full_load.source_table,
        full_load.pk_string as raw_key,
        {{ cdc_history.sql_string_literal('0' * 35) }} as order_key,
        cast(null as timestamp) as change_seq_at,
        'I' as change_oper,
        false as is_truncate,
        cast(null as string) as transaction_id,
        cast(null as string) as stream_position,
        cast(null as timestamp) as op_ts,
        cast(null as array<string>) as changed_columns,
        cast(array() as array<string>) as flags,
        cast(null as timestamp) as loaded_at,
        full_load.row_image,
        {{ cdc_history.sql_string_array(column_names) }} as present_columns,
        full_load.pk_string,
        {{ cdc_history.cdc_pk_map(key_columns, 'full_load.row_image') }} as pk,
        cast(null as map<string, string>) as before_image_row,  -- noqa: LT01
        cast(null as string) as before_image_pk_string,
        cast(null as map<string, string>) as before_image_pk,  -- noqa: LT01
        false as mask_sets_key_bits,
        true as is_snapshot
    from full_load

)

select * from paired
union all
select * from snapshot
{%- endmacro %}
