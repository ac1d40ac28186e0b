{{ config(enabled=cdc_source_system_enabled('qlik_kafka')) }}
{#- One row per landed Qlik Kafka message kept out of the change log, with the
    reason (spec B.8): a message whose value, envelope or headers are wrong; a
    metadata message that is wrong or conflicts with another copy of its
    version; a data message with no metadata in force, a mask bit beyond its
    version's columns, a value that is not of its column's type, a NULL key;
    every copy of a conflicting duplicate, and late conflicting duplicates;
    and per landed file kept out whole (stg_qlik_kafka__landed_files). #}

with

staged as (

    {#- the staged file: the staging's own bookkeeping #}
    select * except (landed_file, landed_file_modified_at)
    from {{ ref('stg_qlik_kafka__messages') }}

),

metadata_versions as (

    select * from {{ ref('int_qlik_kafka__metadata_versions') }}

),

decoded as (

    select * from {{ ref('int_qlik_kafka__messages_decoded') }}

),

deduplicated as (

    select * from {{ ref('int_qlik_kafka__messages_deduplicated') }}

),

quarantined as (

    select
        'qlik_kafka' as source_system,
        staged.source_table,
        staged.landed_table,
        staged.message_id as raw_key,
        staged.change_seq as order_key,
        concat('message: ', staged.envelope_error) as reason,
        to_json(named_struct(
            'message_id', staged.message_id,
            'key', staged.message_key,
            'value', staged.message_value,
            'timestamp', staged.kafka_timestamp,
            'malformed_record', staged.malformed_record
        )) as record_json,
        staged.loaded_at
    from staged
    where staged.envelope_error is not null

    union all

    select
        'qlik_kafka' as source_system,
        metadata_versions.source_table,
        metadata_versions.landed_table,
        metadata_versions.message_id as raw_key,
        cast(null as string) as order_key,
        concat('metadata: ', metadata_versions.metadata_error) as reason,
        to_json(named_struct(
            'message_id', metadata_versions.message_id,
            'value', metadata_versions.message_value
        )) as record_json,
        metadata_versions.loaded_at
    from metadata_versions
    where metadata_versions.metadata_error is not null

    union all

    select
        'qlik_kafka' as source_system,
        decoded.source_table,
        decoded.landed_table,
        decoded.message_id as raw_key,
        decoded.change_seq as order_key,
        decoded.decode_error as reason,
        to_json(named_struct(
            'message_id', decoded.message_id,
            'value', decoded.message_value,
            'timestamp', decoded.kafka_timestamp
        )) as record_json,
        decoded.staged_at as loaded_at
    from decoded
    where not decoded.is_valid

    union all

    select
        'qlik_kafka' as source_system,
        deduplicated.source_table,
        deduplicated.landed_table,
        deduplicated.message_id as raw_key,
        deduplicated.change_seq as order_key,
        case deduplicated.duplicate_status
            when 'conflicting'
                then concat(
                    'conflicting duplicate: ', deduplicated.change_identity,
                    ' delivered with different content'
                )
            else concat(
                'late conflicting duplicate: ', deduplicated.change_identity,
                ' was staged before with other content (the first copy stays)'
            )
        end as reason,
        to_json(named_struct(
            'message_id', deduplicated.message_id,
            'value', deduplicated.message_value,
            'timestamp', deduplicated.kafka_timestamp
        )) as record_json,
        deduplicated.staged_at as loaded_at
    from deduplicated
    where deduplicated.duplicate_status in ('conflicting', 'late_conflicting')

    union all

    {{ cdc_landed_files_kept_out('qlik_kafka') }}

)

select
    {{- cdc_select_columns(cdc_quarantine_columns(), 'quarantined') }}
from quarantined
