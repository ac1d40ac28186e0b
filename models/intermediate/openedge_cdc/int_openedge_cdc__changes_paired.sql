{{ config(
    enabled=cdc_source_system_enabled('openedge_cdc'),
    materialized='table'
) }}
{#- One row per change of one table (table, _Change-Sequence): its tracking row
    and its merged change records, gathered by one aggregation (spec D.9), the
    level-3 before-update record (3) paired with its after-update (4), judged
    (spec D.10). A change whose parts have not all arrived is held
    (hold_reason, retried each run); one that can never be applied is invalid
    (invalid_reason); both are quarantined with the reason, never applied
    half. A table, rebuilt each run: the canonical model, the partition and
    field steps and the quarantine all read it, and as a view its aggregation
    ran once for each of them. #}
{%- set tables = {} %}
{%- for table_name in cdc_tables_of('openedge_cdc') %}
{%- do tables.update({table_name: openedge_cdc_table_settings(table_name)}) %}
{%- endfor %}

with

tracking as (

    select * from {{ ref('stg_openedge_cdc__change_tracking') }}
    where source_table is not null and change_sequence is not null

),

records as (

    select * from {{ ref('int_openedge_cdc__split_records_merged') }}

),

parts as (

    {# every landed part of a change in one stream: its tracking rows, its
       merged change records and its quarantined change records, each in a
       column of its own (NULL in the others), so one aggregation per change
       gathers them (no union of their keys and no joins: each part is read
       and shuffled once) #}
    select
        tracking.source_table,
        tracking.change_sequence,
        struct(
            tracking.is_valid,
            tracking.operation,
            tracking.tran_id,
            tracking.op_ts,
            tracking.policy_id,
            tracking.recid,
            tracking.partition_id,
            tracking.tenant_id,
            tracking.changed_columns,
            tracking.flags
        ) as tracking_row,
        null as record,
        false as is_invalid_record
    from tracking
    union all
    select
        records.source_table,
        records.change_sequence,
        null as tracking_row,
        struct(records.*) as record,
        false as is_invalid_record
    from records
    {%- for table_name in tables %}
    union all
    select
        staged.source_table,
        staged.change_sequence,
        null as tracking_row,
        null as record,
        true as is_invalid_record
    from {{ ref('stg_openedge_cdc__' ~ table_name) }} as staged
    where not staged.is_valid and staged.change_sequence is not null
    {%- endfor %}

),

joined as (

    select
        parts.source_table,
        parts.change_sequence,
        lpad(cast(parts.change_sequence as string), 20, '0') as order_key,
        case parts.source_table
            {%- for table_name, table in tables.items() %}
            when {{ sql_string_literal(table_name) }} then {{ table.level }}
            {%- endfor %}
        end as policy_level,
        count_if(
            parts.tracking_row.is_valid and parts.tracking_row.operation != 3
        ) as main_row_count,
        count_if(parts.tracking_row.is_valid) as valid_row_count,
        count_if(not parts.tracking_row.is_valid) as invalid_tracking_count,
        min_by(parts.tracking_row, parts.tracking_row.operation) filter (
            where
            parts.tracking_row.is_valid and parts.tracking_row.operation != 3
        ) as main_row,
        max_by(parts.record, parts.record.operation) filter (
            where parts.record.is_ready and parts.record.operation in (1, 4)
        ) as after_record,
        max_by(parts.record, parts.record.operation) filter (
            where parts.record.is_ready and parts.record.operation = 2
        ) as deleted_record,
        max_by(parts.record, parts.record.operation) filter (
            where parts.record.is_ready and parts.record.operation = 3
        ) as before_record,
        count_if(
            parts.record.is_ready and parts.record.operation in (1, 2, 4)
        ) as row_record_count,
        nullif(
            concat_ws('; ', collect_list(parts.record.hold_reason)), ''
        ) as record_holds,
        count_if(parts.is_invalid_record) as invalid_record_count
    from parts
    group by parts.source_table, parts.change_sequence  -- noqa: AM06

),

operated as (

    select
        joined.*,
        coalesce(
            joined.main_row.operation,
            joined.after_record.operation,
            joined.deleted_record.operation
        ) as operation,  -- noqa: RF04
        coalesce(
            joined.after_record.operation, joined.deleted_record.operation
        ) as record_operation,
        coalesce(joined.after_record, joined.deleted_record) as row_record
    from joined

),

imaged as (

    select
        operated.*,
        case
            when operated.policy_level < 2
                then map(
                    {%- for table_name, table in tables.items()
                          if not table.has_values %}
                    {%- if loop.first %}
                    case operated.source_table
                    {%- endif %}
                        when {{ sql_string_literal(table_name) }}
                            then {{ sql_string_literal(table.key_columns[0]) }}
                    {%- if loop.last %}
                end,
                    {%- endif %}
                    {%- else %}
                    cast(null as string),
                    {%- endfor %}
                    cast(operated.main_row.recid as string)
                )
            else operated.row_record.row_values
        end as row_image,
        case
            when operated.operation = 2 then operated.deleted_record.row_values
            else operated.before_record.row_values
        end as before_values,
        case
            when operated.operation in (1, 4)
                then operated.after_record.row_values
        end as after_values
    from operated

),

keyed as (

    select
        imaged.*,
        case imaged.source_table
            {%- for table_name, table in tables.items() %}
            when {{ sql_string_literal(table_name) }}
                then {{ cdc_pk_map(table.key_columns, 'imaged.row_image') }}
            {%- endfor %}
        end as pk,
        case imaged.source_table
            {%- for table_name, table in tables.items() %}
            when {{ sql_string_literal(table_name) }}
                then {{ cdc_pk_string(
                    table.key_columns, "imaged.row_image['{column}']") }}
            {%- endfor %}
        end as pk_string,
        case
            when imaged.operation = 4 and imaged.before_record is not null
                then case imaged.source_table
                    {%- for table_name, table in tables.items() %}
                    when {{ sql_string_literal(table_name) }}
                        then {{ cdc_pk_map(
                            table.key_columns,
                            'imaged.before_record.row_values') }}
                    {%- endfor %}
                end
        end as pk_before_values
    from imaged

),

judged as (

    select
        keyed.*,
        case
            when keyed.main_row_count > 1
                then
                    'tracking rows with different operations share this '
                    || 'change sequence'
            when keyed.main_row_count = 0 and keyed.invalid_tracking_count > 0
                then 'its tracking row is quarantined'
            when
                keyed.main_row_count = 0
                and keyed.row_record_count = 0
                and keyed.before_record is not null
                then null
            when
                keyed.record_operation is not null
                and keyed.main_row.operation is not null
                and keyed.record_operation != keyed.main_row.operation
                then concat(
                    'the change record''s operation ', keyed.record_operation,
                    ' disagrees with the tracking row''s ',
                    keyed.main_row.operation
                )
            when keyed.row_record_count > 1
                then
                    'more than one create, update or delete record share '
                    || 'this change sequence'
            when
                keyed.operation in (1, 2, 4)
                and keyed.policy_level >= 2
                and keyed.row_record is null
                and keyed.record_holds is null
                and keyed.invalid_record_count > 0
                then 'its change record is quarantined'
            when
                keyed.operation in (1, 2, 4)
                and keyed.pk_string is null
                and keyed.row_record is not null
                then 'NULL key value'
            when
                keyed.operation between 5 and 12
                and keyed.row_record is not null
                then 'a change record for a control operation'
            when
                keyed.operation between 6 and 11
                and keyed.main_row.partition_id is null
                then
                    'partition operation without a partition id: the rows '
                    || 'it removes cannot be identified'
            when
                keyed.operation in (9, 10)
                and keyed.main_row.tenant_id is null
                then
                    'multi-tenant partition operation without a tenant id: '
                    || 'the rows it removes cannot be identified'
            when
                keyed.operation in (5, 12)
                and size(keyed.main_row.changed_columns) != 1
                then
                    'field delete or add that does not name exactly one '
                    || 'field (_Changed-Columns)'
        end as invalid_reason,
        case
            when
                keyed.main_row_count = 0
                and keyed.row_record_count = 0
                and keyed.before_record is not null
                then
                    'held: a before-update record (3) whose after-update '
                    || '(4) has not arrived'
            when keyed.operation is null and keyed.record_holds is not null
                then keyed.record_holds
            when keyed.operation is null and keyed.valid_row_count > 0
                then 'held: only a before-update (3) tracking row has arrived'
            when
                keyed.operation in (1, 2, 4)
                and keyed.policy_level >= 2
                and keyed.row_record is null
                then coalesce(
                    keyed.record_holds,
                    concat(
                        'held: a tracking row whose change record has not ',
                        'arrived (level ', keyed.policy_level, ')'
                    )
                )
            when
                keyed.operation in (1, 2, 4)
                and keyed.row_record is not null
                and keyed.record_holds is not null
                then keyed.record_holds
        end as hold_reason,
        filter(
            array(
                case
                    when keyed.main_row_count = 0 then 'tracking_row_missing'
                end,
                case
                    when
                        keyed.policy_level = 3
                        and keyed.operation = 4
                        and keyed.before_record is null
                        then 'before_image_missing'
                end,
                case
                    when
                        keyed.before_record is not null
                        and keyed.operation != 4
                        then 'before_image_without_update'
                end,
                case
                    when keyed.after_record.is_split then 'split_record_merged'
                end,
                case
                    when keyed.deleted_record.is_split
                        then 'split_record_merged'
                end
            ),
            flag -> flag is not null
        ) as pairing_flags
    from keyed

),

previous_by_recid as (

    {# level 2 records no before image: an update that changed the
       identifying fields is found by _Recid, whose previous change (not a
       delete) held another key (spec D.9: _Recid kept as the technical id) #}
    select
        judged.*,
        last(
            case
                when
                    judged.operation in (1, 2, 4)
                    and judged.invalid_reason is null
                    and judged.hold_reason is null
                    then struct(
                        judged.operation as operation,  -- noqa: RF04
                        judged.pk as pk,
                        judged.pk_string as pk_string
                    )
            end,
            true
        ) over (
            partition by judged.source_table, judged.main_row.recid
            order by judged.change_sequence
            rows between unbounded preceding and 1 preceding
        ) as previous_by_recid
    from judged

),

final as (

    select
        judged.source_table,
        judged.change_sequence,
        judged.order_key,
        judged.policy_level,
        judged.operation,
        coalesce(judged.main_row.tran_id, judged.row_record.tran_id)
            as tran_id,
        coalesce(judged.main_row.op_ts, judged.row_record.op_ts) as op_ts,
        judged.main_row.policy_id,
        judged.main_row.recid,
        judged.main_row.partition_id,
        judged.main_row.tenant_id,
        judged.main_row.changed_columns,
        judged.pk,
        judged.pk_string,
        case
            when
                {{ cdc_pk_string_of_map('judged.pk_before_values') }}
                != judged.pk_string
                then judged.pk_before_values
            when
                judged.operation = 4
                and judged.policy_level = 2
                and judged.main_row.recid is not null
                and judged.previous_by_recid.operation != 2
                and judged.previous_by_recid.pk_string != judged.pk_string
                then judged.previous_by_recid.pk
        end as pk_before,
        judged.before_record is not null as has_before_image,
        judged.before_values,
        judged.after_values,
        case
            when judged.policy_level < 2 then map_keys(judged.pk)
            else coalesce(
                judged.after_record.landed_columns,
                judged.deleted_record.landed_columns
            )
        end as present_columns,
        concat(
            coalesce(judged.main_row.flags, array()), judged.pairing_flags
        ) as flags,
        judged.invalid_reason,
        judged.hold_reason,
        {# a change none of whose landed rows is valid or held: those rows
           are quarantined by staging, so nothing here to apply or hold #}
        judged.valid_row_count > 0
        or judged.row_record is not null
        or judged.before_record is not null
        or judged.record_holds is not null as has_landed_parts,
        judged.operation is not null
        and judged.invalid_reason is null
        and judged.hold_reason is null as is_ready
    from previous_by_recid as judged

)

select * from final
