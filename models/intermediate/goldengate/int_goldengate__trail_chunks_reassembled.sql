{{
    config(
        enabled=cdc_source_system_enabled('goldengate'),
        **goldengate_trail_file_config()
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
    F.3) and the transaction end of its last.

    Incremental by trail file (partition trail_seqno): a run rewrites the files
    from the first one a newly staged record can change
    (goldengate_trail_files_to_write: the file of the first new record, or an
    earlier one where a chunk chain or transaction still open there began) and
    keeps the files before it; a first build, a full refresh or a write that
    never finished writes every file.

    Most records are no chunk: a record with RecCount 1 (or none) that is not
    Continued = Y is a whole chain by itself (it starts one, and the record
    after it starts the next), its own logical record, written as it is. Only
    the other records (chunks, and records a chain holds) are numbered into
    chains in trail order, from a narrow projection of every record (what
    starts a chain depends on the record before, whatever it is), and
    aggregated. Copies are looked for by an aggregate of the positions; only
    the records of a position staged twice are ranked. So the wide records
    are never shuffled or sorted whole. #}
{#- no record staged since the last write read them: skipped unread
    (cdc_inputs_unchanged) #}
{%- if cdc_inputs_unchanged() -%}
{{ cdc_nothing_new() }}
{%- else -%}
{%- set plan = goldengate_trail_files_to_write(this) %}

with

staged as (

    select staged.*
    from {{ ref('stg_goldengate__trail_records') }} as staged
    where
        staged.record_error is null
        and {{ goldengate_trail_files_filter(plan, 'staged') }}

),

copied_positions as (

    {# positions staged more than once (rare: exact copies never reach
       here, staging keeps one) #}
    select
        staged.trail_seqno,
        staged.trail_rba
    from staged
    group by 1, 2
    having count(*) > 1

),

copies_ranked as (

    {# the records of those positions: copies with other content are
       conflicting (all of the first run's) or late (the first stays) #}
    select
        copied.*,
        row_number() over (
            partition by copied.trail_seqno, copied.trail_rba
            order by copied.loaded_at, copied.record_hash
        ) as copy_number,
        count_if(copied.loaded_at = copied.first_staged_at) over (
            partition by copied.trail_seqno, copied.trail_rba
        ) as copies_in_first_run
    from (
        select
            staged.*,
            min(staged.loaded_at) over (
                partition by staged.trail_seqno, staged.trail_rba
            ) as first_staged_at
        from staged
        left semi join copied_positions
            on
                staged.trail_seqno = copied_positions.trail_seqno
                and staged.trail_rba = copied_positions.trail_rba
    ) as copied

),

usable as (

    {# one record a position: the only one, or the first copy when no other
       copy with other content came in the same run #}
    select staged.*
    from staged
    left anti join copied_positions
        on
            staged.trail_seqno = copied_positions.trail_seqno
            and staged.trail_rba = copied_positions.trail_rba
    union all
    select
        copies_ranked.* except (
            first_staged_at, copy_number, copies_in_first_run
        )
    from copies_ranked
    where
        copies_ranked.copy_number = 1
        and copies_ranked.copies_in_first_run = 1

),

segmented as (

    select
        usable.*,
        {{ goldengate_trail_segment('usable') }} as trail_segment,
        coalesce(usable.rec_count, 1) = 1
        and not usable.continued <=> 'Y' as is_single
    from usable

),

trail_order as (

    {# what chain numbering reads of every record, in trail order #}
    select
        segmented.trail_seqno,
        segmented.trail_segment,
        segmented.trail_rba,
        segmented.continued,
        segmented.rec_count,
        segmented.is_single
    from segmented

),

segment_ends as (

    {# each segment's last record, for the first record of the next #}
    select
        trail_order.trail_seqno,
        trail_order.trail_segment,
        max_by(
            named_struct('continued', trail_order.continued),
            trail_order.trail_rba
        ) as last_record
    from trail_order
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
        trail_order.*,
        case
            when
                coalesce(
                    lag(named_struct('continued', trail_order.continued)) over (
                        partition by
                            trail_order.trail_seqno, trail_order.trail_segment
                        order by trail_order.trail_rba
                    ),
                    segment_previous_ends.previous_record
                ).continued = 'Y'
                and coalesce(trail_order.rec_count, 1) != 1
                then 0
            else 1
        end as is_chain_start
    from trail_order
    inner join segment_previous_ends
        on
            trail_order.trail_seqno = segment_previous_ends.trail_seqno
            and trail_order.trail_segment = segment_previous_ends.trail_segment

),

segment_chain_starts as (

    {# chains started before each segment: the running count's carry #}
    {{ goldengate_segment_counts_before('chunks_marked', 'is_chain_start') }}

),

chunks_numbered as (

    select
        chunks_marked.trail_seqno,
        chunks_marked.trail_rba,
        chunks_marked.is_single,
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

chained as (

    {# the records of chains that are not a single record, each as one
       struct (so its columns travel once), with their chain's number; the
       single records are left out on both sides of the join #}
    select
        chunks_numbered.chain_number,
        struct(segmented.*) as record
    from segmented
    inner join chunks_numbered
        on
            segmented.trail_seqno = chunks_numbered.trail_seqno
            and segmented.trail_rba = chunks_numbered.trail_rba
    where not segmented.is_single and not chunks_numbered.is_single

),

single_records as (

    {# a whole chain by itself (see above): its own logical record, as the
       aggregation below would make it (one chunk: the chunk's images) #}
    select
        struct(segmented.*) as first_chunk,
        cast(1 as bigint) as chunk_count,
        array(segmented.record_id) as record_ids,
        segmented.trans_ind as last_trans_ind,
        cast(null as string) as hold_reason,
        segmented.before_map,
        segmented.after_map,
        segmented.loaded_at
    from segmented
    where segmented.is_single

),

chains as (

    select
        chained.chain_number,
        count(*) as chunk_count,
        {# the first chunk's record (its position, header, id), so the logical
           record needs no join back to the chunks #}
        min_by(
            chained.record,
            named_struct(
                'trail_seqno', chained.record.trail_seqno,
                'trail_rba', chained.record.trail_rba
            )
        ) as first_chunk,
        max_by(
            chained.record.continued,
            named_struct(
                'trail_seqno', chained.record.trail_seqno,
                'trail_rba', chained.record.trail_rba
            )
        ) as last_continued,
        max_by(
            chained.record.trans_ind,
            named_struct(
                'trail_seqno', chained.record.trail_seqno,
                'trail_rba', chained.record.trail_rba
            )
        ) as last_trans_ind,
        array_sort(
            collect_list(coalesce(chained.record.rec_count, 1))
        ) as rec_counts,
        count(distinct chained.record.io_type) as io_types,
        count(distinct chained.record.source_table_name) as table_names,
        count(distinct chained.record.before_after) as before_afters,
        {# in RecCount order (maps do not sort, so a comparator) #}
        array_sort(
            collect_list(
                named_struct(
                    'rec_count', coalesce(chained.record.rec_count, 1),
                    'before_map', chained.record.before_map,
                    'after_map', chained.record.after_map
                )
            ),
            (left_chunk, right_chunk) -> case
                when left_chunk.rec_count < right_chunk.rec_count then -1
                when left_chunk.rec_count > right_chunk.rec_count then 1
                else 0
            end
        ) as chunks,
        {# in trail order, whatever order the chunks were gathered in #}
        transform(
            array_sort(collect_list(named_struct(
                'trail_seqno', chained.record.trail_seqno,
                'trail_rba', chained.record.trail_rba,
                'record_id', chained.record.record_id
            ))),
            chunk -> chunk.record_id
        ) as record_ids,
        max(chained.record.loaded_at) as loaded_at
    from chained
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

merged as (

    select
        judged.*,
        {# a column's pieces joined in RecCount order; a column only NULL
           stays NULL, an image no chunk has stays NULL #}
        {{ goldengate_chunks_image('judged', 'before_map') }} as before_map,
        {{ goldengate_chunks_image('judged', 'after_map') }} as after_map
    from judged

),

logical_records as (

    select * from single_records
    union all
    select
        merged.first_chunk,
        merged.chunk_count,
        merged.record_ids,
        merged.last_trans_ind,
        merged.hold_reason,
        merged.before_map,
        merged.after_map,
        merged.loaded_at
    from merged

),

final as (

    select
        ---------- position of the logical record (its first chunk)
        logical_records.first_chunk.trail_seqno,
        logical_records.first_chunk.trail_rba,
        logical_records.first_chunk.record_id,
        logical_records.first_chunk.record_hash,
        logical_records.first_chunk.landed_table,
        concat(
            lpad(
                cast(logical_records.first_chunk.trail_seqno as string), 10, '0'
            ),
            lpad(
                cast(logical_records.first_chunk.trail_rba as string), 20, '0'
            )
        ) as order_key,

        ---------- header of the first chunk (spec E.1)
        logical_records.first_chunk.undo_flag,
        logical_records.first_chunk.record_length,
        logical_records.first_chunk.io_type,
        logical_records.first_chunk.io_type_name,
        logical_records.first_chunk.io_kind,
        logical_records.first_chunk.trans_ind,
        logical_records.last_trans_ind,
        logical_records.first_chunk.syskey_length,
        logical_records.first_chunk.audit_rba,
        logical_records.first_chunk.audit_pos,
        logical_records.first_chunk.partition_indicator,
        logical_records.first_chunk.before_after,
        logical_records.first_chunk.io_time,
        logical_records.first_chunk.orig_node,
        logical_records.first_chunk.format_type,
        logical_records.first_chunk.source_table_name,
        logical_records.first_chunk.tokens,

        ---------- reassembled (spec E.3)
        logical_records.chunk_count,
        logical_records.record_ids,
        case
            when logical_records.hold_reason is null then 'complete'
            else 'held'
        end as chain_status,
        logical_records.hold_reason,
        case
            when logical_records.hold_reason is null
                then logical_records.before_map
        end as before_map,
        case
            when logical_records.hold_reason is null
                then logical_records.after_map
        end as after_map,
        logical_records.loaded_at
    from logical_records

)

select * from final
{%- endif %}
