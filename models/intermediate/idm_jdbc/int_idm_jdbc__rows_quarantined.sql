{{ config(enabled=cdc_source_system_enabled('idm_jdbc')) }}
{#- One row per IDM event log row that cannot flow on (spec C.8), with the
    reason (a malformed CSV record with its raw text), per landed snapshot row
    that is not used (a NULL or repeated key, a malformed record), and per
    landed file kept out whole (stg_idm_jdbc__landed_files). #}
{%- set snapshot_tables = [] %}
{%- for table_name in cdc_tables_of('idm_jdbc') %}
{%- if cdc_table_config(table_name).get('snapshot_table') %}
{%- do snapshot_tables.append(table_name) %}
{%- endif %}
{%- endfor %}

with

invalid_events as (

    select * from {{ ref('stg_idm_jdbc__event_log') }}
    where not is_valid

),

quarantined as (

    select
        'idm_jdbc' as source_system,
        invalid_events.table_name as source_table,
        {{ sql_string_literal(cdc_var('idm_jdbc_event_log')) }} as landed_table,
        cast(invalid_events.record_id as string) as raw_key,
        invalid_events.order_key,
        invalid_events.invalid_reason as reason,
        case
            when invalid_events.malformed_record is not null
                then to_json(named_struct(
                    'malformed_record', invalid_events.malformed_record
                ))
            else to_json(named_struct(
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
            ))
        end as record_json,
        cast(null as timestamp) as loaded_at
    from invalid_events
    {% for table_name in snapshot_tables -%}
    {%- set snapshot_table = cdc_table_config(table_name).snapshot_table %}
    union all

    select
        'idm_jdbc' as source_system,
        snapshot.table_name as source_table,
        {{ sql_string_literal(snapshot_table) }} as landed_table,
        snapshot.pk_string as raw_key,
        cast(null as string) as order_key,
        concat('snapshot row not used: ', snapshot.invalid_reason) as reason,
        case
            when snapshot.malformed_record is not null
                then to_json(
                    named_struct('malformed_record', snapshot.malformed_record)
                )
            else to_json(snapshot.row_image)
        end as record_json,
        cast(null as timestamp) as loaded_at
    from {{ ref('stg_idm_jdbc__' ~ snapshot_table) }} as snapshot
    where not snapshot.is_valid
    {% endfor %}

    union all

    {{ cdc_landed_files_kept_out('idm_jdbc') }}

)

select
    {{- cdc_select_columns(cdc_quarantine_columns(), 'quarantined') }}
from quarantined
