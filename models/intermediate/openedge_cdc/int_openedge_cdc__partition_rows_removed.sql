{{ config(enabled=cdc_source_system_enabled('openedge_cdc')) }}
{#- One row per (partition operation, row it removes): spec D.10 says the
    partition operations 6 to 11 (drop, truncate, deallocate, their
    multi-tenant and merge forms) carry no row images and must be applied to
    every row of the partition. A row is in the partition when its latest
    change before the operation left it live and was recorded with that
    _Partition-Id (and, for the multi-tenant operations 9 and 10, that
    _Tenant-Id), and no earlier partition operation on the same partition
    removed it already. An operation without the ids is quarantined by
    int_openedge_cdc__changes_paired, never guessed. #}

with

paired as (

    select * from {{ ref('int_openedge_cdc__changes_paired') }}
    where is_ready

),

partition_operations as (

    select
        paired.source_table,
        paired.change_sequence,
        paired.order_key,
        paired.operation,
        paired.tran_id,
        paired.op_ts,
        paired.partition_id,
        paired.tenant_id
    from paired
    where paired.operation between 6 and 11

),

row_events as (

    select
        paired.source_table,
        paired.change_sequence,
        paired.pk_string,
        paired.pk,
        paired.operation != 2 as leaves_row_live,
        paired.partition_id,
        paired.tenant_id
    from paired
    where paired.operation in (1, 2, 4)

    union all

    {# a key update moves the row away from its old key #}
    select
        paired.source_table,
        paired.change_sequence,
        {{ cdc_pk_string_of_map('paired.pk_before') }} as pk_string,
        paired.pk_before as pk,
        false as leaves_row_live,
        paired.partition_id,
        paired.tenant_id
    from paired
    where paired.operation = 4 and paired.pk_before is not null

),

latest_before as (

    select
        partition_operations.*,
        row_events.pk_string,
        row_events.pk,
        row_events.change_sequence as last_change_sequence,
        row_events.leaves_row_live,
        row_events.partition_id as row_partition_id,
        row_events.tenant_id as row_tenant_id,
        row_number() over (
            partition by
                partition_operations.source_table,
                partition_operations.change_sequence,
                row_events.pk_string
            order by row_events.change_sequence desc
        ) as recency
    from partition_operations
    inner join row_events
        on
            partition_operations.source_table = row_events.source_table
            and partition_operations.change_sequence
            > row_events.change_sequence

),

in_partition as (

    select latest_before.*
    from latest_before
    where
        latest_before.recency = 1
        and latest_before.leaves_row_live
        and latest_before.row_partition_id = latest_before.partition_id
        and (
            latest_before.operation not in (9, 10)
            or latest_before.row_tenant_id = latest_before.tenant_id
        )

),

removed as (

    select in_partition.*
    from in_partition
    left anti join partition_operations as earlier
        on
            in_partition.source_table = earlier.source_table
            and in_partition.partition_id = earlier.partition_id
            and (
                earlier.operation not in (9, 10)
                or in_partition.row_tenant_id = earlier.tenant_id
            )
            and in_partition.last_change_sequence < earlier.change_sequence
            and in_partition.change_sequence > earlier.change_sequence

),

final as (

    select
        removed.source_table,
        removed.change_sequence,
        removed.order_key,
        removed.operation,
        removed.tran_id,
        removed.op_ts,
        removed.partition_id,
        removed.tenant_id,
        removed.pk_string,
        removed.pk
    from removed

)

select * from final
