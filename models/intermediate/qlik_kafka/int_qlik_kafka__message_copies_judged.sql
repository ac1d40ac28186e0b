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
    new messages (int_qlik_kafka__messages_deduplicated joins it to them).
    The steps in message order run per table and minute of message time,
    carrying what crosses a minute from one row per minute, so no task holds
    a whole table. A table rebuilt when the decoded messages change (the table materialization
    keeps it when they did not). #}
with

decoded as (

    select * from {{ ref('int_qlik_kafka__messages_decoded') }}
    where is_valid

),

placed as (

    {# what the windows below read: a message's identity and order, and its
       order segment: the minute of its message time (the order's first
       column), so the steps in message order run per table and minute and take
       what crosses a minute from one row per minute (no task holds a whole
       table; the segments change how the work spreads, never a result) #}
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
        decoded.staged_at,
        coalesce(
            decoded.change_seq_at, decoded.kafka_timestamp
        ) as message_at,
        date_trunc(
            'MINUTE', coalesce(decoded.change_seq_at, decoded.kafka_timestamp)
        ) as order_segment
    from decoded

),

segments as (

    {# per table and minute: the operation of its last message in message
       order, and the message time of its first CDC (not REFRESH) message #}
    select
        placed.source_table,
        placed.order_segment,
        max_by(
            named_struct('operation', placed.operation),
            named_struct(
                'message_at', placed.message_at,
                'change_seq', placed.change_seq,
                'kafka_partition', placed.kafka_partition,
                'kafka_offset', placed.kafka_offset
            )
        ) as last_message,
        min(
            case when placed.operation != 'REFRESH' then placed.message_at end
        ) as first_change_at
    from placed
    group by 1, 2

),

segments_carried as (

    {# the message before each minute's first (the last of the minute before;
       NULL for a table's first minute), and the table's first CDC message #}
    select
        segments.source_table,
        segments.order_segment,
        lag(segments.last_message) over (
            partition by segments.source_table
            order by segments.order_segment
        ) as message_before,
        min(segments.first_change_at) over (
            partition by segments.source_table
        ) as first_change_at
    from segments

),

sequenced as (

    select
        placed.*,
        segments_carried.first_change_at,
        coalesce(
            lag(named_struct('operation', placed.operation)) over (
                partition by placed.source_table, placed.order_segment
                order by
                    placed.message_at,
                    placed.change_seq,
                    placed.kafka_partition,
                    placed.kafka_offset
            ),
            segments_carried.message_before
        ).operation as previous_operation
    from placed
    inner join segments_carried
        on
            placed.source_table <=> segments_carried.source_table
            and placed.order_segment <=> segments_carried.order_segment

),

batch_starts as (

    select
        sequenced.* except (previous_operation),
        case
            when
                sequenced.operation = 'REFRESH'
                and coalesce(sequenced.previous_operation, 'NONE') != 'REFRESH'
                then 1
            else 0
        end as starts_batch
    from sequenced

),

segment_batches_before as (

    {# REFRESH batches started in a table's earlier minutes: the running
       count's carry #}
    select
        segment_totals.source_table,
        segment_totals.order_segment,
        coalesce(sum(segment_totals.started) over (
            partition by segment_totals.source_table
            order by segment_totals.order_segment
            rows between unbounded preceding and 1 preceding
        ), 0) as batches_before
    from (
        select
            batch_starts.source_table,
            batch_starts.order_segment,
            sum(batch_starts.starts_batch) as started
        from batch_starts
        group by 1, 2
    ) as segment_totals

),

batched as (

    select
        batch_starts.* except (starts_batch, order_segment),
        segment_batches_before.batches_before
        + sum(batch_starts.starts_batch) over (
            partition by batch_starts.source_table, batch_starts.order_segment
            order by
                batch_starts.message_at,
                batch_starts.change_seq,
                batch_starts.kafka_partition,
                batch_starts.kafka_offset
            rows between unbounded preceding and current row
        ) as refresh_batch
    from batch_starts
    inner join segment_batches_before
        on
            batch_starts.source_table <=> segment_batches_before.source_table
            and batch_starts.order_segment
            <=> segment_batches_before.order_segment

),

batch_times as (

    {# each batch's first message time (one row per table and batch, so the
       CDC messages after a batch, which share its number, are not gathered) #}
    select
        batched.source_table,
        batched.refresh_batch,
        min(batched.message_at) as refresh_batch_at
    from batched
    group by 1, 2

),

identified as (

    {# broadcast: a few rows a table, while a join by batch would gather every
       CDC message after a batch in one task #}
    select /*+ broadcast(batch_times) */
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
        and batch_times.refresh_batch_at > batched.first_change_at as is_reload,
        batch_times.refresh_batch_at
    from batched
    inner join batch_times
        on
            batched.source_table <=> batch_times.source_table
            and batched.refresh_batch <=> batch_times.refresh_batch

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
