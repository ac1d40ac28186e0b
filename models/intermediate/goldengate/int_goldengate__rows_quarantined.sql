{{ config(enabled=cdc_source_system_enabled('goldengate')) }}
{#- One row per landed GoldenGate record or message kept out of the change log,
    with the reason (spec E.6): a trail record whose Hdr-Ind is not E (saying
    whether it sat inside a transaction or between two), or that is wrong by
    itself (a field not of its type or values, an unknown IOType, a BeforeAfter
    that contradicts the operation, an image that is not a JSON object); a
    record at a staged position with other content; a held record (a chunk
    chain not complete, a before image without its after image), kept until
    the rest lands; a NonStop transaction-control record (no table change); a
    JSON message wrong by itself or a conflicting copy; a change that fails
    its table (unconfigured table, unknown or repeated column, a value not of
    its type, a NULL key); and every landed file kept out whole. #}

with

trail_staged as (

    select * from {{ ref('stg_goldengate__trail_records') }}

),

sequenced as (

    select * from {{ ref('int_goldengate__trail_records_sequenced') }}

),

position_copies as (

    {# the records the chunk model leaves out as conflicting copies #}
    select
        trail_staged.*,
        count(*) over (
            partition by
                trail_staged.trail_seqno,
                trail_staged.trail_rba,
                trail_staged.loaded_at
        ) as copies_in_run,
        min(trail_staged.loaded_at) over (
            partition by trail_staged.trail_seqno, trail_staged.trail_rba
        ) as first_staged_at
    from trail_staged
    where trail_staged.record_error is null

),

quarantined as (

    select
        'ogg_trail' as source_system,
        cast(null as string) as source_table,
        trail_staged.landed_table,
        trail_staged.record_id as raw_key,
        case
            when
                trail_staged.trail_seqno is not null
                and trail_staged.trail_rba is not null
                then concat(
                    lpad(cast(trail_staged.trail_seqno as string), 10, '0'),
                    lpad(cast(trail_staged.trail_rba as string), 20, '0')
                )
        end as order_key,
        concat('trail record: ', trail_staged.record_error) as reason,
        to_json(named_struct(
            'record_id', trail_staged.record_id,
            'hdr_ind', trail_staged.header_indicator,
            'io_type', trail_staged.io_type_text,
            'trans_ind', trail_staged.trans_ind_text,
            'table_name', trail_staged.source_table_name,
            'before_image', trail_staged.before_image_json,
            'after_image', trail_staged.after_image_json,
            'malformed_record', trail_staged.malformed_record
        )) as record_json,
        trail_staged.loaded_at
    from trail_staged
    where
        trail_staged.record_error is not null
        and trail_staged.is_extract_record

    union all

    select
        'ogg_trail' as source_system,
        cast(null as string) as source_table,
        sequenced.landed_table,
        sequenced.record_id as raw_key,
        concat(
            lpad(cast(sequenced.trail_seqno as string), 10, '0'),
            lpad(cast(sequenced.trail_rba as string), 20, '0')
        ) as order_key,
        case sequenced.disposition
            when 'not_extract'
                then concat(
                    'trail record: ', sequenced.record_error, ' (',
                    case
                        when sequenced.is_inside_transaction
                            then 'inside a transaction'
                        else 'between transactions'
                    end,
                    '; never applied)'
                )
            when 'held' then concat('trail record ', sequenced.held_reason)
            else concat(
                'trail record: not a table change: IOType ',
                sequenced.io_type, ' (', sequenced.io_type_name,
                ') is a NonStop TMF transaction-control record'
            )
        end as reason,
        to_json(named_struct(
            'record_ids', sequenced.record_ids,
            'io_type', sequenced.io_type,
            'trans_ind', sequenced.trans_ind,
            'before_after', sequenced.before_after,
            'table_name', sequenced.source_table_name
        )) as record_json,
        sequenced.loaded_at
    from sequenced
    where
        sequenced.disposition in ('not_extract', 'held', 'transaction_control')

    union all

    select
        'ogg_trail' as source_system,
        cast(null as string) as source_table,
        position_copies.landed_table,
        position_copies.record_id as raw_key,
        concat(
            lpad(cast(position_copies.trail_seqno as string), 10, '0'),
            lpad(cast(position_copies.trail_rba as string), 20, '0')
        ) as order_key,
        case
            when position_copies.loaded_at = position_copies.first_staged_at
                then concat(
                    'conflicting duplicate: trail position ',
                    position_copies.record_id,
                    ' delivered with different content'
                )
            else concat(
                'late conflicting duplicate: trail position ',
                position_copies.record_id,
                ' was staged before with other content (the first copy stays)'
            )
        end as reason,
        to_json(named_struct(
            'record_id', position_copies.record_id,
            'io_type', position_copies.io_type_text,
            'table_name', position_copies.source_table_name,
            'before_image', position_copies.before_image_json,
            'after_image', position_copies.after_image_json
        )) as record_json,
        position_copies.loaded_at
    from position_copies
    where
        (
            position_copies.loaded_at = position_copies.first_staged_at
            and position_copies.copies_in_run > 1
        )
        or position_copies.loaded_at > position_copies.first_staged_at

    union all

    select
        'ogg_json' as source_system,
        cast(null as string) as source_table,
        json_messages.landed_table,
        json_messages.message_id as raw_key,
        json_messages.order_key,
        concat('message: ', json_messages.message_error) as reason,
        to_json(named_struct(
            'message_id', json_messages.message_id,
            'key', json_messages.message_key,
            'value', json_messages.message_value,
            'malformed_record', json_messages.malformed_record
        )) as record_json,
        json_messages.loaded_at
    from {{ ref('stg_goldengate__json_messages') }} as json_messages
    where json_messages.message_error is not null

    union all

    select
        judged.source_system,
        judged.source_table,
        judged.landed_table,
        judged.raw_key,
        judged.order_key,
        concat(
            case judged.form
                when 'trail' then 'trail record: '
                else 'message: '
            end,
            judged.judge_error
        ) as reason,
        judged.record_json,
        judged.loaded_at
    from {{ ref('int_goldengate__changes_judged') }} as judged
    where judged.judge_error is not null

    union all

    {{ cdc_landed_files_kept_out('goldengate') }}

)

select
    {{- cdc_select_columns(cdc_quarantine_columns(), 'quarantined') }}
from quarantined
