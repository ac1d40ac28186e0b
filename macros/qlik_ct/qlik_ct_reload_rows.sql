{% macro qlik_ct_reload_rows(table_name, reloaded_at, paired) %}
    {#- A reload of a Qlik table's full load applied as a snapshot (qlik_ct_full_load_plan):
        rows shaped as the table's pairing's (qlik_ct_changes_paired: same columns, same
        order), for int_qlik_ct__changes_logged to log:
          a TRUNCATE at the reload's position, change number 0: every key ends there, so a
          key the reload lacks ends at the reload;
          the reload's rows (the folder's valid rows, the pairing's snapshot rows, read from
          the log's CTE of them, named by `paired`) as snapshot inserts at change number 1;
        both flagged `reload`. The position is `reloaded_at` (the newest modification time
        of the folder's readable files, session time zone) as change_seq's time part,
        YYYYMMDDHHmmSShh, as the Kafka format positions a REFRESH batch by its timestamp. -#}
    {%- set at = 'timestamp ' ~ cdc_history.sql_string_literal(reloaded_at) -%}
    {%- set position = "date_format(" ~ at ~ ", 'yyyyMMddHHmmssSS')" %}
    select
        reloaded.source_table,
        reloaded.raw_key,
        concat({{ position }}, repeat('0', 18), '1') as order_key,
        {{ at }} as change_seq_at,
        reloaded.change_oper,
        reloaded.is_truncate,
        reloaded.transaction_id,
        reloaded.stream_position,
        reloaded.op_ts,
        reloaded.changed_columns,
        array('reload') as flags,
        current_timestamp() as loaded_at,
        reloaded.row_image,
        reloaded.present_columns,
        reloaded.pk_string,
        reloaded.pk,
        reloaded.before_image_row,
        reloaded.before_image_pk_string,
        reloaded.before_image_pk,
        reloaded.mask_sets_key_bits,
        reloaded.is_snapshot
    from {{ paired }} as reloaded
    where reloaded.is_snapshot
    union all
    select
        {{ cdc_history.sql_string_literal(table_name) }} as source_table,
        concat_ws('|', {{ cdc_history.sql_string_literal(table_name) }}, 'reload', {{ position }})
            as raw_key,
        concat({{ position }}, repeat('0', 19)) as order_key,
        {{ at }} as change_seq_at,
        'T' as change_oper,
        true as is_truncate,
        cast(null as string) as transaction_id,
        cast(null as string) as stream_position,
        cast(null as timestamp) as op_ts,
        cast(null as array<string>) as changed_columns,
        array('reload') as flags,
        current_timestamp() as loaded_at,
        cast(null as map<string, string>) as row_image,
        cast(null as array<string>) as present_columns,
        cast(null as string) as pk_string,
        cast(null as map<string, string>) as pk,
        cast(null as map<string, string>) as before_image_row,
        cast(null as string) as before_image_pk_string,
        cast(null as map<string, string>) as before_image_pk,
        false as mask_sets_key_bits,
        true as is_snapshot
{%- endmacro %}
