{{
    config(
        enabled=cdc_source_system_enabled('goldengate'),
        materialized='table'
    )
}}
{#- One row per logical trail record (spec E.3): the staged Extract records
    without errors, one copy per trail position (a second record at a staged
    position with other content is a conflicting duplicate, quarantined), and
    the Continued = Y chunks of one record reassembled. A chain is a run of
    records in trail order (trail_seqno, trail_rba) each but the last marked
    Continued = Y; a record with RecCount 1 starts a new one. Its images are the
    chunks' images merged: a column's value is its chunks' pieces joined in
    RecCount order. A chain is complete when its RecCounts are 1..n and its
    last chunk says Continued = N; otherwise it is held (chain_status held,
    quarantined with the reason) and reassembled when the rest lands. The
    logical record takes the position and header of its first chunk (spec
    F.3) and the transaction end of its last. A table rebuilt each run.
    Copies, chains and their checks read each record's position and header
    fields only (placed); the records themselves, images and all, join the
    result once, and only the chunks of chains of more than one are grouped:
    sorting and grouping the whole records once per step cost more than
    everything else. #}

with

staged as (

    select * from {{ ref('stg_goldengate__trail_records') }}
    where record_error is null

),

placed as (

    {# what the steps below read of a record: its position and header #}
    select
        staged.trail_seqno,
        staged.trail_rba,
        staged.record_hash,
        staged.record_id,
        staged.continued,
        staged.rec_count,
        staged.trans_ind,
        staged.io_type,
        staged.source_table_name,
        staged.before_after,
        staged.loaded_at
    from staged

),

copies_ranked as (

    select
        placed.*,
        row_number() over (
            partition by placed.trail_seqno, placed.trail_rba
            order by placed.loaded_at, placed.record_hash
        ) as copy_number,
        min(placed.loaded_at) over (
            partition by placed.trail_seqno, placed.trail_rba
        ) as first_staged_at
    from placed

),

copies_compared as (

    select
        copies_ranked.*,
        count(
            case
                when copies_ranked.loaded_at = copies_ranked.first_staged_at
                    then 1
            end
        ) over (
            partition by copies_ranked.trail_seqno, copies_ranked.trail_rba
        ) as copies_in_first_run
    from copies_ranked

),

usable as (

    {# exact copies never reach here (staging keeps one); copies with other
       content are conflicting (all of the first run's) or late (the first
       stays) #}
    select copies_compared.*
    from copies_compared
    where
        copies_compared.copy_number = 1
        and copies_compared.copies_in_first_run = 1

),

segmented as (

    select
        usable.*,
        {{ goldengate_trail_segment('usable') }} as trail_segment
    from usable

),

segment_ends as (

    {# each segment's last record, for the first record of the next #}
    select
        segmented.trail_seqno,
        segmented.trail_segment,
        max_by(
            named_struct('continued', segmented.continued),
            segmented.trail_rba
        ) as last_record
    from segmented
    group by 1, 2

),

segment_previous_ends as (

    select
        segment_ends.trail_seqno,
        segment_ends.trail_segment,
        lag(segment_ends.last_record) over (
            order by segment_ends.trail_seqno, segment_ends.trail_segment
        ) as previous_record
    from segment_ends

),

chunks_marked as (

    select
        segmented.*,
        case
            when
                coalesce(
                    lag(named_struct('continued', segmented.continued)) over (
                        partition by
                            segmented.trail_seqno, segmented.trail_segment
                        order by segmented.trail_rba
                    ),
                    segment_previous_ends.previous_record
                ).continued = 'Y'
                and coalesce(segmented.rec_count, 1) != 1
                then 0
            else 1
        end as is_chain_start
    from segmented
    inner join segment_previous_ends
        on
            segmented.trail_seqno = segment_previous_ends.trail_seqno
            and segmented.trail_segment = segment_previous_ends.trail_segment

),

segment_chain_starts as (

    {# chains started before each segment: the running count's carry #}
    {{ goldengate_segment_counts_before('chunks_marked', 'is_chain_start') }}

),

chunks_numbered as (

    select
        chunks_marked.*,
        segment_chain_starts.counted_before
        + sum(chunks_marked.is_chain_start) over (
            partition by chunks_marked.trail_seqno, chunks_marked.trail_segment
            order by chunks_marked.trail_rba
            rows between unbounded preceding and current row
        ) as chain_number
    from chunks_marked
    inner join segment_chain_starts
        on
            chunks_marked.trail_seqno = segment_chain_starts.trail_seqno
            and chunks_marked.trail_segment = segment_chain_starts.trail_segment

),

chains as (

    select
        chunks_numbered.chain_number,
        count(*) as chunk_count,
        min(
            named_struct(
                'trail_seqno', chunks_numbered.trail_seqno,
                'trail_rba', chunks_numbered.trail_rba
            )
        ) as first_position,
        max_by(
            chunks_numbered.continued,
            named_struct(
                'trail_seqno', chunks_numbered.trail_seqno,
                'trail_rba', chunks_numbered.trail_rba
            )
        ) as last_continued,
        max_by(
            chunks_numbered.trans_ind,
            named_struct(
                'trail_seqno', chunks_numbered.trail_seqno,
                'trail_rba', chunks_numbered.trail_rba
            )
        ) as last_trans_ind,
        array_sort(
            collect_list(coalesce(chunks_numbered.rec_count, 1))
        ) as rec_counts,
        count(distinct chunks_numbered.io_type) as io_types,
        count(distinct chunks_numbered.source_table_name) as table_names,
        count(distinct chunks_numbered.before_after) as before_afters,
        collect_list(chunks_numbered.record_id) as record_ids,
        max(chunks_numbered.loaded_at) as loaded_at
    from chunks_numbered
    group by 1

),

judged as (

    select
        chains.*,
        case
            when chains.last_continued = 'Y'
                then concat(
                    'held: chunk chain not terminated (last chunk has ',
                    'Continued = Y; RecCount ',
                    array_join(chains.rec_counts, ', '), ' landed)'
                )
            when
                chains.rec_counts
                != sequence(1, cast(chains.chunk_count as int))
                then concat(
                    'held: chunk chain incomplete (RecCount ',
                    array_join(chains.rec_counts, ', '),
                    ' landed, 1 to ',
                    element_at(chains.rec_counts, -1), ' expected)'
                )
            when
                chains.io_types > 1
                or chains.table_names > 1
                or chains.before_afters > 1
                then concat(
                    'held: chunks of one chain disagree on IOType, table ',
                    'or BeforeAfter'
                )
        end as hold_reason
    from chains

),

records as (

    {# each usable record, header and images, with its chain #}
    select
        staged.trail_seqno,
        staged.trail_rba,
        staged.record_id,
        staged.record_hash,
        staged.landed_table,
        staged.undo_flag,
        staged.record_length,
        staged.io_type,
        staged.io_type_name,
        staged.io_kind,
        staged.trans_ind,
        staged.syskey_length,
        staged.audit_rba,
        staged.audit_pos,
        staged.partition_indicator,
        staged.before_after,
        staged.io_time,
        staged.orig_node,
        staged.format_type,
        staged.source_table_name,
        staged.tokens,
        staged.rec_count,
        staged.before_map,
        staged.after_map,
        chunks_numbered.chain_number,
        judged.chunk_count,
        judged.last_trans_ind,
        judged.record_ids,
        judged.hold_reason,
        judged.loaded_at as chain_loaded_at
    from staged
    inner join chunks_numbered
        on
            staged.trail_seqno = chunks_numbered.trail_seqno
            and staged.trail_rba = chunks_numbered.trail_rba
            and staged.record_hash = chunks_numbered.record_hash
    inner join judged
        on chunks_numbered.chain_number = judged.chain_number

),

chained as (

    {# the chunks of each chain of more than one, in RecCount order (maps
       do not sort, so a comparator), with its first chunk #}
    select
        records.chain_number,
        max(records.chunk_count) as chunk_count,
        min_by(
            struct(records.*),
            named_struct(
                'trail_seqno', records.trail_seqno,
                'trail_rba', records.trail_rba
            )
        ) as first_chunk,
        array_sort(
            collect_list(
                named_struct(
                    'rec_count', coalesce(records.rec_count, 1),
                    'before_map', records.before_map,
                    'after_map', records.after_map
                )
            ),
            (left_chunk, right_chunk) -> case
                when left_chunk.rec_count < right_chunk.rec_count then -1
                when left_chunk.rec_count > right_chunk.rec_count then 1
                else 0
            end
        ) as chunks
    from records
    where records.chunk_count > 1
    {# by name: struct(records.*) forbids grouping by position #}
    group by records.chain_number  -- noqa: AM06

),

merged as (

    {# a column's pieces joined in RecCount order; a column only NULL
       stays NULL, an image no chunk has stays NULL #}
    select
        chained.first_chunk.*,
        {{ goldengate_chunks_image('chained', 'before_map') }}
            as merged_before_map,
        {{ goldengate_chunks_image('chained', 'after_map') }}
            as merged_after_map
    from chained

),

logical as (

    {# a chain of one is its record, a longer one its chunks merged #}
    select
        records.*,
        records.before_map as merged_before_map,
        records.after_map as merged_after_map
    from records
    where records.chunk_count = 1
    union all
    select merged.*
    from merged

),

final as (

    select
        ---------- position of the logical record (its first chunk)
        logical.trail_seqno,
        logical.trail_rba,
        logical.record_id,
        logical.record_hash,
        logical.landed_table,
        concat(
            lpad(cast(logical.trail_seqno as string), 10, '0'),
            lpad(cast(logical.trail_rba as string), 20, '0')
        ) as order_key,

        ---------- header of the first chunk (spec E.1)
        logical.undo_flag,
        logical.record_length,
        logical.io_type,
        logical.io_type_name,
        logical.io_kind,
        logical.trans_ind,
        logical.last_trans_ind,
        logical.syskey_length,
        logical.audit_rba,
        logical.audit_pos,
        logical.partition_indicator,
        logical.before_after,
        logical.io_time,
        logical.orig_node,
        logical.format_type,
        logical.source_table_name,
        logical.tokens,

        ---------- reassembled (spec E.3)
        logical.chunk_count,
        logical.record_ids,
        case
            when logical.hold_reason is null then 'complete' else 'held'
        end as chain_status,
        logical.hold_reason,
        case
            when logical.hold_reason is null then logical.merged_before_map
        end as before_map,
        case
            when logical.hold_reason is null then logical.merged_after_map
        end as after_map,
        logical.chain_loaded_at as loaded_at
    from logical

)

select * from final
