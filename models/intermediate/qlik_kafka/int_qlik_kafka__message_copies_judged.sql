{{ config(
    enabled=cdc_source_system_enabled('qlik_kafka'),
    materialized='table'
) }}
{#- One row per valid decoded data message, by its place (landed table,
    partition, offset) and value: its place among the copies of its change
    (spec B.8: at-least-once delivery) and its REFRESH batch (spec B.7). A CDC
    change is identified by (table, changeSequence, operation), a REFRESH row
    by (table, refresh batch, key). The first copy staged is in force; later
    identical copies collapse onto it (duplicate_status exact_copy); copies
    with another value staged in the same run as the first make the change
    conflicting (every copy quarantined), copies with another value staged in
    a later run are late conflicting duplicates (quarantined, the first copy
    stays). REFRESH rows are batched: a run of REFRESH messages of a table not
    interrupted by a CDC message, in message time; batch 1 before any CDC
    message is the baseline, any other is a reload.
    The windows read each message's identity and order columns only, and the
    table holds only those and the judgement: sorting the whole messages,
    images and all, once per window cost more than everything else, and a
    table of the judgements is what lets each table's images read only their
    new messages (int_qlik_kafka__messages_deduplicated joins it to them). A
    table rebuilt when the decoded messages change (the table materialization
    keeps it when they did not). #}
with

decoded as (

    select * from {{ ref('int_qlik_kafka__messages_decoded') }}
    where is_valid

),

placed as (

    {# what the windows below read: a message's identity and order #}
    select
        decoded.landed_table,
        decoded.kafka_partition,
        decoded.kafka_offset,
        decoded.value_hash,
        decoded.source_table,
        decoded.operation,
        decoded.change_seq,
        decoded.change_seq_at,
        decoded.kafka_timestamp,
        decoded.pk_string,
        decoded.staged_at
    from decoded

),

sequenced as (

    select
        placed.*,
        coalesce(
            placed.change_seq_at, placed.kafka_timestamp
        ) as message_at,
        coalesce(
            lag(placed.operation) over (
                partition by placed.source_table
                order by
                    coalesce(placed.change_seq_at, placed.kafka_timestamp),
                    placed.change_seq,
                    placed.kafka_partition,
                    placed.kafka_offset
            ),
            'NONE'
        ) as previous_operation
    from placed

),

batched as (

    select
        sequenced.*,
        sum(
            case
                when
                    sequenced.operation = 'REFRESH'
                    and sequenced.previous_operation != 'REFRESH'
                    then 1
                else 0
            end
        ) over (
            partition by sequenced.source_table
            order by
                sequenced.message_at,
                sequenced.change_seq,
                sequenced.kafka_partition,
                sequenced.kafka_offset
            rows between unbounded preceding and current row
        ) as refresh_batch,
        min(
            case
                when sequenced.operation != 'REFRESH'
                    then sequenced.message_at
            end
        ) over (partition by sequenced.source_table) as first_change_at
    from sequenced

),

identified as (

    select
        batched.*,
        case
            when batched.operation = 'REFRESH'
                then concat(
                    'REFRESH|', batched.refresh_batch, '|', batched.pk_string
                )
            else concat(batched.operation, '|', batched.change_seq)
        end as change_identity,
        batched.operation = 'REFRESH'
        and batched.first_change_at is not null
        and min(batched.message_at) over (
            partition by batched.source_table, batched.refresh_batch
        ) > batched.first_change_at as is_reload,
        min(batched.message_at) over (
            partition by batched.source_table, batched.refresh_batch
        ) as refresh_batch_at
    from batched

),

copies_ranked as (

    select
        identified.*,
        row_number() over (
            partition by identified.source_table, identified.change_identity
            order by
                identified.staged_at,
                identified.landed_table,
                identified.kafka_partition,
                identified.kafka_offset
        ) as copy_number,
        min(identified.staged_at) over (
            partition by identified.source_table, identified.change_identity
        ) as first_staged_at
    from identified

),

copies_compared as (

    select
        copies_ranked.*,
        first_value(copies_ranked.value_hash) over (
            partition by
                copies_ranked.source_table, copies_ranked.change_identity
            order by copies_ranked.copy_number
        ) as first_value_hash,
        size(collect_set(
            case
                when copies_ranked.staged_at = copies_ranked.first_staged_at
                    then copies_ranked.value_hash
            end
        ) over (
            partition by
                copies_ranked.source_table, copies_ranked.change_identity
        )) as values_in_first_run
    from copies_ranked

),

judged as (

    select
        copies_compared.landed_table,
        copies_compared.kafka_partition,
        copies_compared.kafka_offset,
        copies_compared.value_hash,
        copies_compared.message_at,
        copies_compared.refresh_batch,
        copies_compared.first_change_at,
        copies_compared.change_identity,
        copies_compared.is_reload,
        copies_compared.refresh_batch_at,
        copies_compared.copy_number,
        copies_compared.first_staged_at,
        case
            when copies_compared.values_in_first_run > 1
                then 'conflicting'
            when copies_compared.value_hash != copies_compared.first_value_hash
                then 'late_conflicting'
            when copies_compared.copy_number > 1 then 'exact_copy'
            else 'first'
        end as duplicate_status
    from copies_compared

)

select * from judged
