{{ config(enabled=cdc_source_system_enabled('openedge_cdc')) }}
{#- One row per (field delete, row live at that point) of a level 2/3 table:
    spec D.2/D.10 say a field delete (operation 5) changes the change table's
    column set from that point, so the history must no longer show the field.
    Rows that change later carry no value for it anyway (their change records
    lack it); every row live at the field delete gets a version there with the
    field NULL: its latest image (from its latest change before the delete,
    not removed by a partition operation since) with that one field cleared.
    A field add (12) needs no rows: the field shows from the next change of
    each row on. #}

with

paired as (

    select * from {{ ref('int_openedge_cdc__changes_paired') }}
    where is_ready

),

removed as (

    select * from {{ ref('int_openedge_cdc__partition_rows_removed') }}

),

field_deletes as (

    select
        paired.source_table,
        paired.change_sequence,
        paired.order_key,
        paired.tran_id,
        paired.op_ts,
        paired.changed_columns[0] as field_name
    from paired
    where paired.operation = 5 and paired.policy_level >= 2

),

field_events as (

    select
        paired.source_table,
        paired.change_sequence,
        paired.operation,
        paired.changed_columns[0] as field_name
    from paired
    where paired.operation in (5, 12) and paired.policy_level >= 2

),

dropped_by_then as (

    {# every field deleted at or before the delete and not added since: an
       earlier row image may still hold an earlier-dropped field #}
    select
        field_deletes.source_table,
        field_deletes.change_sequence,
        collect_set(earlier.field_name) as dropped_fields
    from field_deletes
    inner join field_events as earlier
        on
            field_deletes.source_table = earlier.source_table
            and earlier.operation = 5
            and field_deletes.change_sequence >= earlier.change_sequence
    left anti join field_events as added
        on
            earlier.source_table = added.source_table
            and earlier.field_name = added.field_name
            and added.operation = 12
            and earlier.change_sequence < added.change_sequence
            and field_deletes.change_sequence >= added.change_sequence
    group by 1, 2

),

row_events as (

    select
        paired.source_table,
        paired.change_sequence,
        paired.pk_string,
        paired.pk,
        paired.operation != 2 as leaves_row_live,
        paired.after_values,
        paired.present_columns
    from paired
    where paired.operation in (1, 2, 4)

    union all

    select
        paired.source_table,
        paired.change_sequence,
        {{ cdc_pk_string_of_map('paired.pk_before') }} as pk_string,
        paired.pk_before as pk,
        false as leaves_row_live,
        cast(null as map<string, string>) as after_values,  -- noqa: LT01
        cast(null as array<string>) as present_columns
    from paired
    where paired.operation = 4 and paired.pk_before is not null

    union all

    select
        removed.source_table,
        removed.change_sequence,
        removed.pk_string,
        removed.pk,
        false as leaves_row_live,
        cast(null as map<string, string>) as after_values,  -- noqa: LT01
        cast(null as array<string>) as present_columns
    from removed

),

latest_before as (

    select
        field_deletes.*,
        dropped_by_then.dropped_fields,
        row_events.pk_string,
        row_events.pk,
        row_events.leaves_row_live,
        row_events.after_values,
        row_events.present_columns,
        row_number() over (
            partition by
                field_deletes.source_table,
                field_deletes.change_sequence,
                row_events.pk_string
            order by row_events.change_sequence desc
        ) as recency
    from field_deletes
    inner join dropped_by_then
        on
            field_deletes.source_table = dropped_by_then.source_table
            and field_deletes.change_sequence = dropped_by_then.change_sequence
    inner join row_events
        on
            field_deletes.source_table = row_events.source_table
            and field_deletes.change_sequence > row_events.change_sequence

),

final as (

    select
        latest_before.source_table,
        latest_before.change_sequence,
        latest_before.order_key,
        latest_before.tran_id,
        latest_before.op_ts,
        latest_before.field_name,
        latest_before.dropped_fields,
        latest_before.pk_string,
        latest_before.pk,
        latest_before.after_values as before_values,
        transform_values(
            latest_before.after_values,
            (name, value) -> case
                when array_contains(latest_before.dropped_fields, name)
                    then null
                else value
            end
        ) as after_values,
        latest_before.present_columns
    from latest_before
    where
        latest_before.recency = 1
        and latest_before.leaves_row_live
        and latest_before.after_values[latest_before.field_name] is not null

)

select * from final
