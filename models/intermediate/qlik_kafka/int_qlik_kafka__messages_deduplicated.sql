{{ config(enabled=cdc_source_system_enabled('qlik_kafka')) }}
{#- One row per valid decoded data message with its place among the copies of
    its change and its REFRESH batch (int_qlik_kafka__message_copies_judged,
    where the rules are): the decoded message joined to its judgement. A view:
    a reader that takes only some messages (each table's images take those
    loaded after their watermark) reads only those of the decoded messages. #}

with

decoded as (

    select * from {{ ref('int_qlik_kafka__messages_decoded') }}
    where is_valid

),

judged as (

    select * from {{ ref('int_qlik_kafka__message_copies_judged') }}

),

final as (

    select
        decoded.*,
        judged.message_at,
        judged.refresh_batch,
        judged.first_change_at,
        judged.change_identity,
        judged.is_reload,
        judged.refresh_batch_at,
        judged.copy_number,
        judged.first_staged_at,
        judged.duplicate_status
    {# staging keeps one row per place (landed table, partition, offset) and
       value (cdc_topic_messages_not_staged): one judgement per message #}
    from decoded
    inner join judged
        on
            decoded.landed_table = judged.landed_table
            and decoded.kafka_partition <=> judged.kafka_partition
            and decoded.kafka_offset <=> judged.kafka_offset
            and decoded.value_hash = judged.value_hash

)

select * from final
