{% macro cdc_topic_messages_not_staged(landed) %}
    {#- CTEs of an incremental staging model of landed Kafka topic records, after `landed`
        (a CTE of cdc_topic_record_columns plus landed_table), ending in `new_messages`:
        each record with value_hash and message_id (topic/partition/offset); a message is
        what Kafka delivered at (topic, partition, offset), so the same value at the same
        place landed again (a file copied twice, a replayed batch) is staged once, and a
        record the model already holds is not staged again. -#}
hashed as (

    select
        {{ landed }}.*,
        sha2(
            coalesce({{ landed }}.message_value, {{ landed }}.malformed_record, ''),
            256
        ) as value_hash,
        concat_ws(
            '/',
            coalesce({{ landed }}.topic, {{ landed }}.landed_table),
            cast({{ landed }}.kafka_partition as string),
            cast({{ landed }}.kafka_offset as string)
        ) as message_id
    from {{ landed }}

),

copies_numbered as (

    select
        hashed.*,
        row_number() over (
            partition by
                hashed.landed_table,
                hashed.kafka_partition,
                hashed.kafka_offset,
                hashed.value_hash
            order by hashed.kafka_timestamp
        ) as copy_number
    from hashed

),

new_messages as (

    select copies_numbered.*
    from copies_numbered
    {% if is_incremental() %}
    left anti join {{ this }} as staged
        on
            copies_numbered.landed_table = staged.landed_table
            and coalesce(copies_numbered.kafka_partition, -1)
            = coalesce(staged.kafka_partition, -1)
            and coalesce(copies_numbered.kafka_offset, -1)
            = coalesce(staged.kafka_offset, -1)
            and copies_numbered.value_hash = staged.value_hash
    {% endif %}
    where copies_numbered.copy_number = 1

)
{%- endmacro %}
