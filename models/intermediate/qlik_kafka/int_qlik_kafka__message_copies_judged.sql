{{ config(
    enabled=cdc_source_system_enabled('qlik_kafka'),
    materialized='incremental',
    incremental_strategy='append',
    on_schema_change='append_new_columns',
    pre_hook=[
        "{{ cdc_write_started('staged_at') }}",
        "{{ cdc_append_reset() }}"
    ],
    post_hook=["{{ cdc_write_finished() }}"]
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
    a whole table.
    Appended to: a run judges only the messages staged since the last write
    when none of them can change a judgement made before
    (qlik_kafka_judgement_plan: each new message is a copy of a judged change
    at its judged place, or comes after every judged message of its table in
    message order), carrying each table's last operation, REFRESH batch and
    first change time, and each change's earlier copies, from the table;
    otherwise, and when the decoded messages were decoded again, it judges
    every message again (cdc_append_plan's rebuild). Either way the rows are
    those a judgement of every message writes. #}
{%- set plan = qlik_kafka_judgement_plan(
    ref('int_qlik_kafka__messages_decoded')) %}
{#- the messages this run judges: those staged since the last write, or all #}
{%- set newly_staged = 'staged_at > timestamp ' ~ sql_string_literal(plan.since)
    if plan.since else 'true' %}
{%- if plan.since and plan.newer == 0 %}
{{ cdc_nothing_new() }}
{%- else %}
with

decoded as (

    select * from {{ ref('int_qlik_kafka__messages_decoded') }}
    where
        is_valid
        and {{ newly_staged }}

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
        decoded.transaction_id,
        decoded.transaction_event_counter,
        decoded.is_transaction_last_event,
        coalesce(
            decoded.change_seq_at, decoded.kafka_timestamp
        ) as message_at,
        date_trunc(
            'MINUTE', coalesce(decoded.change_seq_at, decoded.kafka_timestamp)
        ) as order_segment
    from decoded

),

judged_before as (

    {# the judgements this run appends to; none when every message is judged #}
    {%- if plan.since %}
    select
        judged.source_table,
        judged.operation,
        judged.change_seq,
        judged.kafka_partition,
        judged.kafka_offset,
        judged.value_hash,
        judged.message_at,
        judged.refresh_batch,
        judged.refresh_batch_at,
        judged.first_change_at,
        judged.change_identity,
        judged.copy_number,
        judged.first_staged_at,
        judged.duplicate_status
    from {{ this }} as judged
    {%- else %}
    select
        placed.source_table,
        placed.operation,
        placed.change_seq,
        placed.kafka_partition,
        placed.kafka_offset,
        placed.value_hash,
        placed.message_at,
        cast(null as bigint) as refresh_batch,
        placed.message_at as refresh_batch_at,
        placed.message_at as first_change_at,
        placed.value_hash as change_identity,
        cast(null as int) as copy_number,
        placed.staged_at as first_staged_at,
        placed.value_hash as duplicate_status
    from placed
    where false
    {%- endif %}

),

tables_before as (

    {# per table judged before: its last message in message order (what the
       first new message follows), its last REFRESH batch and that batch's
       time, and the time of its first CDC message #}
    select
        judged_before.source_table,
        max_by(
            named_struct('operation', judged_before.operation),
            named_struct(
                'message_at', judged_before.message_at,
                'change_seq', judged_before.change_seq,
                'kafka_partition', judged_before.kafka_partition,
                'kafka_offset', judged_before.kafka_offset
            )
        ) as last_message,
        max(judged_before.refresh_batch) as last_batch,
        max_by(
            judged_before.refresh_batch_at, judged_before.refresh_batch
        ) as last_batch_at,
        max(judged_before.first_change_at) as first_change_at
    from judged_before
    group by 1

),

new_identities as (

    {# the changes judged before that this run's messages can be copies of:
       a CDC message's, and a REFRESH row's in its table's last batch (the
       only one judged before that a new REFRESH row can go on with) #}
    select distinct
        placed.source_table,
        case
            when placed.operation = 'REFRESH'
                then concat(
                    'REFRESH|', tables_before.last_batch, '|', placed.pk_string
                )
            else concat(placed.operation, '|', placed.change_seq)
        end as change_identity
    from placed
    inner join tables_before
        on placed.source_table <=> tables_before.source_table

),

judged_related as (

    {# the judgements of those changes: a few rows, so the steps below never
       gather every judgement by change #}
    select /*+ broadcast(new_identities) */ judged_before.*
    from judged_before
    left semi join new_identities
        on
            judged_before.source_table <=> new_identities.source_table
            and judged_before.change_identity = new_identities.change_identity

),

changes_before as (

    {# the CDC changes judged before, at their place in message order: a new
       copy of one at the same place sorts beside it, so it takes its batch
       and changes no other message's #}
    select
        judged_related.source_table,
        judged_related.change_identity,
        judged_related.message_at,
        min(judged_related.refresh_batch) as refresh_batch,
        min(judged_related.refresh_batch_at) as refresh_batch_at,
        min(judged_related.first_change_at) as first_change_at
    from judged_related
    where judged_related.operation != 'REFRESH'
    group by 1, 2, 3

),

placed_by_change as (

    {# each new message with the change judged before that it is a copy of
       (qlik_kafka_judgement_plan's copies), if any: one join, at most one
       match (changes_before is one row per change and place) #}
    select
        placed.*,
        changes_before.change_identity as copied_identity,
        changes_before.first_change_at as copied_first_change_at,
        changes_before.refresh_batch as copied_refresh_batch,
        changes_before.refresh_batch_at as copied_refresh_batch_at
    from placed
    left join changes_before
        on {{ qlik_kafka_copy_of_judged_change('placed', 'changes_before') }}

),

copied as (

    {# new copies of changes judged before, placed as their change is #}
    select
        placed_by_change.* except (
            order_segment,
            copied_identity,
            copied_first_change_at,
            copied_refresh_batch,
            copied_refresh_batch_at
        ),
        placed_by_change.copied_first_change_at as first_change_at,
        placed_by_change.copied_refresh_batch as refresh_batch,
        placed_by_change.copied_identity as change_identity,
        false as is_reload,
        placed_by_change.copied_refresh_batch_at as refresh_batch_at
    from placed_by_change
    where placed_by_change.copied_identity is not null

),

following as (

    {# every other message: in a run that appends, each comes after every
       message judged before of its table (qlik_kafka_judgement_plan), so the
       steps in message order go on from the table's last #}
    select
        placed_by_change.* except (
            copied_identity,
            copied_first_change_at,
            copied_refresh_batch,
            copied_refresh_batch_at
        )
    from placed_by_change
    where placed_by_change.copied_identity is null

),

segments as (

    {# per table and minute: the operation of its last message in message
       order, and the message time of its first CDC (not REFRESH) message #}
    select
        following.source_table,
        following.order_segment,
        max_by(
            named_struct('operation', following.operation),
            named_struct(
                'message_at', following.message_at,
                'change_seq', following.change_seq,
                'kafka_partition', following.kafka_partition,
                'kafka_offset', following.kafka_offset
            )
        ) as last_message,
        min(
            case
                when following.operation != 'REFRESH'
                    then following.message_at
            end
        ) as first_change_at
    from following
    group by 1, 2

),

segments_carried as (

    {# the message before each minute's first (the last of the minute before;
       for a table's first minute its last message judged before, NULL for
       none), the table's first CDC message, and the REFRESH batches the
       table had before #}
    select
        segments.source_table,
        segments.order_segment,
        coalesce(
            lag(segments.last_message) over (
                partition by segments.source_table
                order by segments.order_segment
            ),
            tables_before.last_message
        ) as message_before,
        coalesce(
            tables_before.first_change_at,
            min(segments.first_change_at) over (
                partition by segments.source_table
            )
        ) as first_change_at,
        coalesce(tables_before.last_batch, 0) as batches_judged_before
    from segments
    left join tables_before
        on segments.source_table <=> tables_before.source_table

),

sequenced as (

    select
        following.*,
        segments_carried.first_change_at,
        segments_carried.batches_judged_before,
        coalesce(
            lag(named_struct('operation', following.operation)) over (
                partition by following.source_table, following.order_segment
                order by
                    following.message_at,
                    following.change_seq,
                    following.kafka_partition,
                    following.kafka_offset
            ),
            segments_carried.message_before
        ).operation as previous_operation
    from following
    inner join segments_carried
        on
            following.source_table <=> segments_carried.source_table
            and following.order_segment <=> segments_carried.order_segment

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

    {# REFRESH batches started before each minute: those judged before and
       those of the table's earlier minutes (the running count's carry) #}
    select
        segment_totals.source_table,
        segment_totals.order_segment,
        segment_totals.batches_judged_before
        + coalesce(sum(segment_totals.started) over (
            partition by segment_totals.source_table
            order by segment_totals.order_segment
            rows between unbounded preceding and 1 preceding
        ), 0) as batches_before
    from (
        {# one value a table: an aggregate, not a grouping key, so the rows
           stay one per table and minute #}
        select
            batch_starts.source_table,
            batch_starts.order_segment,
            max(batch_starts.batches_judged_before) as batches_judged_before,
            sum(batch_starts.starts_batch) as started
        from batch_starts
        group by 1, 2
    ) as segment_totals

),

batched as (

    select
        batch_starts.* except (
            starts_batch, order_segment, batches_judged_before
        ),
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
       CDC messages after a batch, which share its number, are not gathered);
       the batch a table's new messages go on with began before them #}
    select
        batch_numbers.source_table,
        batch_numbers.refresh_batch,
        case
            when batch_numbers.refresh_batch = tables_before.last_batch
                then tables_before.last_batch_at
            else batch_numbers.refresh_batch_at
        end as refresh_batch_at
    from (
        select
            batched.source_table,
            batched.refresh_batch,
            min(batched.message_at) as refresh_batch_at
        from batched
        group by 1, 2
    ) as batch_numbers
    left join tables_before
        on batch_numbers.source_table <=> tables_before.source_table

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

placed_judged as (

    {# the same columns in the same order (copied lists them as batched and
       identified add them) #}
    select * from identified
    union all
    select * from copied

),

copies_before as (

    {# per change with a copy judged before: how many, the first one's value
       and staging, and whether it was judged conflicting (its first run
       staged copies with different values) #}
    select
        judged_related.source_table,
        judged_related.change_identity,
        count(*) as copies_before,
        max(
            case
                when judged_related.copy_number = 1
                    then judged_related.value_hash
            end
        ) as first_value_hash,
        min(judged_related.first_staged_at) as first_staged_at,
        bool_or(
            judged_related.duplicate_status = 'conflicting'
        ) as is_conflicting
    from judged_related
    group by 1, 2

),

copies_ranked as (

    {# a copy staged in this run comes after those judged before #}
    select
        placed_judged.*,
        coalesce(copies_before.copies_before, 0) + row_number() over (
            partition by
                placed_judged.source_table, placed_judged.change_identity
            order by
                placed_judged.staged_at,
                placed_judged.landed_table,
                placed_judged.kafka_partition,
                placed_judged.kafka_offset
        ) as copy_number,
        coalesce(
            copies_before.first_staged_at,
            min(placed_judged.staged_at) over (
                partition by
                    placed_judged.source_table, placed_judged.change_identity
            )
        ) as first_staged_at,
        copies_before.first_value_hash as first_value_hash_before,
        copies_before.is_conflicting as is_conflicting_before
    from placed_judged
    left join copies_before
        on
            placed_judged.source_table <=> copies_before.source_table
            and placed_judged.change_identity = copies_before.change_identity

),

copies_compared as (

    select
        copies_ranked.*,
        coalesce(
            copies_ranked.first_value_hash_before,
            first_value(copies_ranked.value_hash) over (
                partition by
                    copies_ranked.source_table, copies_ranked.change_identity
                order by copies_ranked.copy_number
            )
        ) as first_value_hash,
        case
            when copies_ranked.is_conflicting_before then 2
            when copies_ranked.is_conflicting_before is not null then 1
            else size(collect_set(
                case
                    when copies_ranked.staged_at = copies_ranked.first_staged_at
                        then copies_ranked.value_hash
                end
            ) over (
                partition by
                    copies_ranked.source_table, copies_ranked.change_identity
            ))
        end as values_in_first_run
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
        end as duplicate_status,
        {# what the next run goes on from (qlik_kafka_judgement_plan) #}
        copies_compared.source_table,
        copies_compared.operation,
        copies_compared.change_seq,
        copies_compared.staged_at,
        {# what int_qlik_kafka__transaction_boundaries reads, so it needs no
           join with the decoded messages #}
        copies_compared.change_seq_at,
        copies_compared.transaction_id,
        copies_compared.transaction_event_counter,
        copies_compared.is_transaction_last_event
    from copies_compared

)

select * from judged
{%- endif %}
