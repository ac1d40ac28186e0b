{{
    config(
        enabled=cdc_source_system_enabled('goldengate'),
        **goldengate_trail_file_config()
    )
}}
{#- One row per logical trail record and per staged record whose Hdr-Ind is
    not E, in trail order, with its transaction and its disposition.

    Transactions (spec E.3): TransInd 0 opens, 1 continues, 2 closes, 3 is a
    transaction of its own; a record opens a new transaction when its TransInd
    says so or when the one before it closed. A transaction is complete when
    its first record opens it, its last closes it and no chunk chain in it is
    held; otherwise every change of it is flagged transaction_incomplete (a
    start or end not landed, or a broken sequence). Records whose Hdr-Ind is
    not E take no part: they are quarantined, the reason saying whether they
    sat inside a transaction or between two.

    Update pairs (spec E.3): a before image (BeforeAfter B) of an update is
    paired with the next row change in trail order when that is the after
    image (A) of an update of the same table in the same transaction; the pair
    is one change at the A record's position. An unpaired before image is held.

    disposition: change (an I, U or D, or a control record), paired_before
    (folded into its update), held, transaction_control (a NonStop TMF record,
    which changes no table) or not_extract. Trail order is followed per 16 MiB
    trail segment (goldengate_trail_segment), so the work spreads over tasks.

    Incremental by trail file (partition trail_seqno), as the reassembled
    records are (goldengate_trail_files_to_write): a run rewrites the files
    from the first one a newly staged record can change, where no transaction
    is open, and keeps those before it; transaction_number goes on from the
    last kept file's. A first build, a full refresh or a write that never
    finished writes every file. #}
{#- no record staged or reassembled since the last write read them: skipped
    unread (cdc_inputs_unchanged) #}
{%- if cdc_inputs_unchanged() -%}
{{ cdc_nothing_new() }}
{%- else -%}
{%- set plan = goldengate_trail_files_to_write(
    ref('int_goldengate__trail_chunks_reassembled')) -%}
{%- set transactions_kept = 0 -%}
{%- if not plan.whole and plan.from_file is not none -%}
    {#- transactions started in the files kept: the running count's carry -#}
    {%- set transactions_kept = run_query(
        'select coalesce(max(kept.transaction_number), 0) from ' ~ this
        ~ ' as kept where kept.trail_seqno < ' ~ (plan.from_file | int)
    ).rows[0][0] | int -%}
{%- endif %}

with

logical_records as (

    select reassembled.*
    from {{ ref('int_goldengate__trail_chunks_reassembled') }} as reassembled
    where {{ goldengate_trail_files_filter(plan, 'reassembled') }}

),

not_extract_records as (

    select staged.*
    from {{ ref('stg_goldengate__trail_records') }} as staged
    where
        not staged.is_extract_record
        and {{ goldengate_trail_files_filter(plan, 'staged') }}

),

trail as (

    select
        logical_records.trail_seqno,
        logical_records.trail_rba,
        logical_records.record_id,
        logical_records.record_hash,
        logical_records.landed_table,
        logical_records.order_key,
        true as is_extract_record,
        logical_records.undo_flag,
        logical_records.io_type,
        logical_records.io_type_name,
        logical_records.io_kind,
        logical_records.trans_ind,
        logical_records.audit_rba,
        logical_records.audit_pos,
        logical_records.before_after,
        logical_records.io_time,
        logical_records.format_type,
        logical_records.source_table_name,
        logical_records.tokens,
        logical_records.chunk_count,
        logical_records.record_ids,
        logical_records.chain_status,
        logical_records.hold_reason,
        logical_records.before_map,
        logical_records.after_map,
        logical_records.trans_ind in (0, 3) as opens_transaction,
        logical_records.last_trans_ind in (2, 3) as closes_transaction,
        cast(null as string) as record_error,
        logical_records.loaded_at
    from logical_records

    union all

    select
        not_extract_records.trail_seqno,
        not_extract_records.trail_rba,
        not_extract_records.record_id,
        not_extract_records.record_hash,
        not_extract_records.landed_table,
        cast(null as string) as order_key,
        false as is_extract_record,
        not_extract_records.undo_flag,
        not_extract_records.io_type,
        not_extract_records.io_type_name,
        not_extract_records.io_kind,
        not_extract_records.trans_ind,
        not_extract_records.audit_rba,
        not_extract_records.audit_pos,
        not_extract_records.before_after,
        not_extract_records.io_time,
        not_extract_records.format_type,
        not_extract_records.source_table_name,
        not_extract_records.tokens,
        1 as chunk_count,
        array(not_extract_records.record_id) as record_ids,
        cast(null as string) as chain_status,
        cast(null as string) as hold_reason,
        cast(null as map<string, string>) as before_map,  -- noqa: LT01
        cast(null as map<string, string>) as after_map,  -- noqa: LT01
        cast(null as boolean) as opens_transaction,
        cast(null as boolean) as closes_transaction,
        not_extract_records.record_error,
        not_extract_records.loaded_at
    from not_extract_records

),

segmented as (

    select
        trail.*,
        {{ goldengate_trail_segment('trail') }} as trail_segment
    from trail

),

segment_closed_before as (

    {# whether the last record before each segment that says so closed a
       transaction (NULL: none before it) #}
    select
        segment_ends.trail_seqno,
        segment_ends.trail_segment,
        last_value(segment_ends.last_closes, true) over (
            order by segment_ends.trail_seqno, segment_ends.trail_segment
            rows between unbounded preceding and 1 preceding
        ) as closed_before
    from (
        select
            segmented.trail_seqno,
            segmented.trail_segment,
            max_by(segmented.closes_transaction, segmented.trail_rba) filter (
                where segmented.closes_transaction is not null
            ) as last_closes
        from segmented
        group by 1, 2
    ) as segment_ends

),

previous_closed as (

    select
        segmented.*,
        coalesce(
            last_value(segmented.closes_transaction, true) over (
                partition by segmented.trail_seqno, segmented.trail_segment
                order by segmented.trail_rba
                rows between unbounded preceding and 1 preceding
            ),
            segment_closed_before.closed_before,
            true
        ) as previous_closed
    from segmented
    inner join segment_closed_before
        on
            segmented.trail_seqno <=> segment_closed_before.trail_seqno
            and segmented.trail_segment <=> segment_closed_before.trail_segment

),

transaction_starts as (

    select
        previous_closed.*,
        case
            when
                previous_closed.is_extract_record
                and (
                    previous_closed.opens_transaction
                    or previous_closed.previous_closed
                )
                then 1
            else 0
        end as starts_transaction
    from previous_closed

),

segment_transactions_before as (

    {# transactions started before each segment: the running count's carry #}
    {{ goldengate_segment_counts_before(
        'transaction_starts', 'starts_transaction'
    ) }}

),

transactions_numbered as (

    select
        transaction_starts.* except (starts_transaction),
        {%- if transactions_kept %}
        case
            when transaction_starts.trail_seqno is not null
                then {{ transactions_kept }}
            else 0
        end
        + {% endif %}segment_transactions_before.counted_before
        + sum(transaction_starts.starts_transaction) over (
            partition by
                transaction_starts.trail_seqno, transaction_starts.trail_segment
            order by transaction_starts.trail_rba
            rows between unbounded preceding and current row
        ) as transaction_number
    from transaction_starts
    inner join segment_transactions_before
        on
            transaction_starts.trail_seqno
            <=> segment_transactions_before.trail_seqno
            and transaction_starts.trail_segment
            <=> segment_transactions_before.trail_segment

),

transactions as (

    select
        transactions_numbered.transaction_number,
        min_by(
            transactions_numbered.opens_transaction,
            transactions_numbered.order_key
        ) as is_opened,
        max_by(
            transactions_numbered.closes_transaction,
            transactions_numbered.order_key
        ) as is_closed,
        count_if(transactions_numbered.chain_status = 'held') as held_chains,
        min_by(
            transactions_numbered.tokens['6'],
            transactions_numbered.order_key
        ) as transaction_token,
        min(transactions_numbered.order_key) as first_order_key
    from transactions_numbered
    where transactions_numbered.is_extract_record
    group by 1

),

in_transactions as (

    select
        transactions_numbered.*,
        transactions.transaction_token,
        transactions.first_order_key,
        coalesce(
            transactions.is_opened
            and transactions.is_closed
            and transactions.held_chains = 0,
            false
        ) as is_transaction_complete,
        row_number() over (
            partition by transactions_numbered.transaction_number
            order by
                transactions_numbered.trail_seqno,
                transactions_numbered.trail_rba
        ) as position_in_trail_transaction
    from transactions_numbered
    left join transactions
        on
            transactions_numbered.transaction_number
            = transactions.transaction_number
            and transactions_numbered.is_extract_record

),

row_change_records as (

    {# the records that can pair: complete row changes #}
    select
        in_transactions.trail_seqno,
        in_transactions.trail_segment,
        in_transactions.trail_rba,
        in_transactions.record_id,
        in_transactions.io_kind,
        in_transactions.before_after,
        in_transactions.source_table_name,
        in_transactions.transaction_number,
        named_struct(
            'record_id', in_transactions.record_id,
            'io_kind', in_transactions.io_kind,
            'before_after', in_transactions.before_after,
            'source_table_name', in_transactions.source_table_name,
            'transaction_number', in_transactions.transaction_number
        ) as as_next,
        named_struct(
            'record_id', in_transactions.record_id,
            'io_kind', in_transactions.io_kind,
            'before_after', in_transactions.before_after,
            'source_table_name', in_transactions.source_table_name,
            'transaction_number', in_transactions.transaction_number,
            'before_map', in_transactions.before_map,
            'order_key', in_transactions.order_key,
            'loaded_at', in_transactions.loaded_at
        ) as as_previous
    from in_transactions
    where
        in_transactions.is_extract_record
        and in_transactions.chain_status = 'complete'
        and in_transactions.io_kind in ('I', 'U', 'D')

),

segment_row_change_neighbours as (

    {# the row change before and after each segment's own #}
    select
        segment_ends.trail_seqno,
        segment_ends.trail_segment,
        lead(segment_ends.first_change) over segment_order
            as next_segment_first,
        lag(segment_ends.last_change) over segment_order
            as previous_segment_last
    from (
        select
            row_change_records.trail_seqno,
            row_change_records.trail_segment,
            min_by(row_change_records.as_next, row_change_records.trail_rba)
                as first_change,
            max_by(
                row_change_records.as_previous, row_change_records.trail_rba
            ) as last_change
        from row_change_records
        group by 1, 2
    ) as segment_ends
    window segment_order as (
        order by segment_ends.trail_seqno, segment_ends.trail_segment
    )

),

row_changes as (

    select
        row_change_records.record_id,
        row_change_records.io_kind,
        row_change_records.before_after,
        row_change_records.source_table_name,
        row_change_records.transaction_number,
        coalesce(
            lead(row_change_records.as_next) over in_segment,
            segment_row_change_neighbours.next_segment_first
        ) as next_change,
        coalesce(
            lag(row_change_records.as_previous) over in_segment,
            segment_row_change_neighbours.previous_segment_last
        ) as previous_change
    from row_change_records
    inner join segment_row_change_neighbours
        on
            row_change_records.trail_seqno
            <=> segment_row_change_neighbours.trail_seqno
            and row_change_records.trail_segment
            <=> segment_row_change_neighbours.trail_segment
    window in_segment as (
        partition by
            row_change_records.trail_seqno, row_change_records.trail_segment
        order by row_change_records.trail_rba
    )

),

pairs_found as (

    select
        row_changes.record_id,
        row_changes.before_after = 'B'
        and row_changes.io_kind = 'U'
        and coalesce(
            row_changes.next_change.before_after = 'A'
            and row_changes.next_change.io_kind = 'U'
            and upper(row_changes.next_change.source_table_name)
            = upper(row_changes.source_table_name)
            and row_changes.next_change.transaction_number
            = row_changes.transaction_number,
            false
        ) as is_paired_before,
        case
            when
                row_changes.before_after = 'A'
                and row_changes.io_kind = 'U'
                and row_changes.previous_change.before_after = 'B'
                and row_changes.previous_change.io_kind = 'U'
                and upper(row_changes.previous_change.source_table_name)
                = upper(row_changes.source_table_name)
                and row_changes.previous_change.transaction_number
                = row_changes.transaction_number
                then row_changes.previous_change
        end as paired_before
    from row_changes

),

final as (

    select
        in_transactions.* except (
            opens_transaction, closes_transaction, previous_closed,
            position_in_trail_transaction, transaction_token, first_order_key,
            trail_segment
        ),
        in_transactions.opens_transaction,
        in_transactions.closes_transaction,
        not in_transactions.previous_closed as is_inside_transaction,
        coalesce(
            in_transactions.transaction_token,
            concat('trail:', in_transactions.first_order_key)
        ) as transaction_id,
        in_transactions.position_in_trail_transaction as transaction_sequence,
        case
            when not in_transactions.is_extract_record then 'not_extract'
            when in_transactions.chain_status = 'held' then 'held'
            when in_transactions.io_kind = 'transaction'
                then 'transaction_control'
            when pairs_found.is_paired_before then 'paired_before'
            when
                in_transactions.before_after = 'B'
                and in_transactions.io_kind = 'U'
                then 'held'
            else 'change'
        end as disposition,
        case
            when
                in_transactions.is_extract_record
                and in_transactions.chain_status = 'complete'
                and in_transactions.io_kind = 'U'
                and in_transactions.before_after = 'B'
                and not coalesce(pairs_found.is_paired_before, false)
                then concat(
                    'held: before image (BeforeAfter B) of an update without ',
                    'its after image (A) next in the same transaction'
                )
            else in_transactions.hold_reason
        end as held_reason,
        {# the update's before image: its own (a key update record carries
           both) or its paired B record's #}
        coalesce(
            in_transactions.before_map, pairs_found.paired_before.before_map
        ) as update_before_map,
        pairs_found.paired_before.record_id as paired_before_record_id,
        greatest(
            in_transactions.loaded_at,
            coalesce(
                pairs_found.paired_before.loaded_at, in_transactions.loaded_at
            )
        ) as change_loaded_at
    from in_transactions
    left join pairs_found
        on
            in_transactions.record_id = pairs_found.record_id
            and in_transactions.is_extract_record

)

select * from final
{%- endif %}
