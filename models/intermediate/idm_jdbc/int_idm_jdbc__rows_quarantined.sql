{{ config(enabled=cdc_source_system_enabled('idm_jdbc')) }}
{#- One row per IDM event log row that cannot flow on (spec C.8), with the
    reason. #}

with

invalid_events as (

    select * from {{ ref('stg_idm_jdbc__event_log') }}
    where not is_valid

),

quarantined as (

    select
        'idm_jdbc' as source_system,
        invalid_events.table_name as source_table,
        {{ sql_string_literal(var('idm_jdbc_event_log')) }} as landed_table,
        cast(invalid_events.record_id as string) as raw_key,
        invalid_events.order_key,
        invalid_events.invalid_reason as reason,
        to_json(named_struct(
            'record_id', invalid_events.record_id,
            'status', invalid_events.status,
            'event_type', invalid_events.event_type,
            'event_time', invalid_events.event_time,
            'perpetrator', invalid_events.perpetrator,
            'table_name', invalid_events.table_name,
            'table_key', invalid_events.table_key,
            'column_name', invalid_events.column_name,
            'old_value', invalid_events.old_value,
            'new_value', invalid_events.new_value
        )) as record_json,
        cast(null as timestamp) as loaded_at
    from invalid_events

)

select
    {{- cdc_select_columns(cdc_quarantine_columns(), 'quarantined') }}
from quarantined
