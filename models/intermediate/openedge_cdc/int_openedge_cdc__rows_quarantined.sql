{{ config(enabled=cdc_source_system_enabled('openedge_cdc')) }}
{#- One row per landed OpenEdge record kept out of the change log, with the
    reason: an invalid tracking row or change-table row (spec D.10), a change
    held or refused whole (int_openedge_cdc__changes_paired: a part missing, a
    split that cannot be merged, a partition operation whose rows cannot be
    identified), a level-3 before image that arrived after its update was
    logged, and a landed file kept out whole. A view: a held change leaves it
    once its parts arrive. #}
{%- set tables = cdc_tables_of('openedge_cdc') %}
{%- set tracking_table = cdc_var('openedge_cdc_tracking_table') %}

with

invalid_tracking as (

    select * from {{ ref('stg_openedge_cdc__change_tracking') }}
    where not is_valid

),

paired as (

    select * from {{ ref('int_openedge_cdc__changes_paired') }}

),

logged as (

    select * from {{ ref('int_openedge_cdc__changes_canonical') }}

),

quarantined as (

    select
        'openedge_cdc' as source_system,
        invalid_tracking.source_table,
        {{ sql_string_literal(tracking_table) }} as landed_table,
        concat_ws(
            ';',
            concat(
                '_Source-Table-Number=', invalid_tracking.source_table_number
            ),
            concat('_Change-Sequence=', invalid_tracking.change_sequence),
            concat('_Operation=', invalid_tracking.operation)
        ) as raw_key,
        invalid_tracking.order_key,
        invalid_tracking.invalid_reason as reason,
        case
            when invalid_tracking.malformed_record is not null
                then to_json(named_struct(
                    'malformed_record', invalid_tracking.malformed_record
                ))
            else to_json(named_struct(
                'source_table_number', invalid_tracking.source_table_number,
                'change_sequence', invalid_tracking.change_sequence,
                'operation', invalid_tracking.operation,
                'tran_id', invalid_tracking.tran_id,
                'op_ts', invalid_tracking.op_ts,
                'policy_id', invalid_tracking.policy_id,
                'recid', invalid_tracking.recid,
                'partition_id', invalid_tracking.partition_id,
                'tenant_id', invalid_tracking.tenant_id,
                'field_map', invalid_tracking.field_map,
                'changed_columns', invalid_tracking.changed_columns
            ))
        end as record_json,
        cast(null as timestamp) as loaded_at
    from invalid_tracking
    {%- for table_name in tables %}

    union all

    select
        'openedge_cdc' as source_system,
        staged.source_table,
        staged.landed_table,
        concat_ws(
            ';',
            concat('_Change-Sequence=', staged.change_sequence),
            concat('_Operation=', staged.operation),
            concat('_Continuation-Position=', staged.continuation_position)
        ) as raw_key,
        staged.order_key,
        staged.invalid_reason as reason,
        staged.record_json,
        cast(null as timestamp) as loaded_at
    from {{ ref('stg_openedge_cdc__' ~ table_name) }} as staged
    where not staged.is_valid
    {%- endfor %}

    union all

    select
        'openedge_cdc' as source_system,
        paired.source_table,
        {{ sql_string_literal(tracking_table) }} as landed_table,
        concat(
            '_Change-Sequence=', paired.change_sequence
        ) as raw_key,
        paired.order_key,
        coalesce(paired.invalid_reason, paired.hold_reason) as reason,
        to_json(named_struct(
            'source_table', paired.source_table,
            'change_sequence', paired.change_sequence,
            'operation', paired.operation,
            'tran_id', paired.tran_id,
            'op_ts', paired.op_ts,
            'recid', paired.recid,
            'partition_id', paired.partition_id,
            'tenant_id', paired.tenant_id,
            'before_values', paired.before_values,
            'after_values', paired.after_values
        )) as record_json,
        cast(null as timestamp) as loaded_at
    from paired
    where not paired.is_ready and paired.has_landed_parts

    union all

    {# the update was logged without it (before_image_missing): too late #}
    select
        'openedge_cdc' as source_system,
        paired.source_table,
        {{ sql_string_literal(tracking_table) }} as landed_table,
        concat(
            '_Change-Sequence=', paired.change_sequence, ';_Operation=3'
        ) as raw_key,
        paired.order_key,
        'before-update record (3) arrived after its update was logged '
        || 'without it' as reason,
        to_json(named_struct(
            'source_table', paired.source_table,
            'change_sequence', paired.change_sequence,
            'before_values', paired.before_values
        )) as record_json,
        logged.loaded_at
    from paired
    inner join logged
        on
            paired.source_table = logged.source_table
            and paired.order_key = logged.order_key
            and logged.op = 'U'
            and not logged.has_before_image
    where paired.is_ready and paired.has_before_image

    union all

    {{ cdc_landed_files_kept_out('openedge_cdc') }}

)

select
    {{- cdc_select_columns(cdc_quarantine_columns(), 'quarantined') }}
from quarantined
