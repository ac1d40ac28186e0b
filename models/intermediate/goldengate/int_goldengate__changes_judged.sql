{{
    config(
        enabled=cdc_source_system_enabled('goldengate'),
        **goldengate_trail_file_config()
    )
}}
{#- One row per candidate change of either form, judged against its table:
    the trail's logical records whose disposition is change (an I, U, D or a
    control record, paired updates carrying their before image) and the Big
    Data JSON messages valid by themselves, one per (table, pos) (spec E.6:
    exact copies collapse, even when current_ts differs; copies with other
    content are conflicting, or late conflicting when staged in a later run).
    The record's table name finds its configured table (form and
    source_table_name); its images are read per declared column: an absent
    column or a JSON <column>_isMissing is unknown (not present), an explicit
    null is NULL; each value is checked against its column's type (binary: its
    text in the column's encoding, cdc_column_encoding). judge_error
    lists what keeps it out of the log (unconfigured table, a column the table
    lacks or named twice, a value not of its type, a NULL or absent key, JSON
    primary_keys other than key_columns, a duplicate).

    Incremental by trail file (partition trail_seqno, none for the JSON
    messages), as the sequenced records are (goldengate_trail_files_to_write):
    a run rewrites the trail's changes from the first file a newly staged
    record can change and keeps those before it (a trail change is judged by
    itself); the JSON messages, whose copies are judged against each other
    whenever they landed, are judged again every run. A first build, a full
    refresh or a write that never finished writes every file. #}
-- depends_on: {{ ref('stg_goldengate__trail_records') }}
{#- (goldengate_trail_files_to_write reads the staged records' files) #}
{#- nothing staged or sequenced since the last write read it: skipped unread
    (cdc_inputs_unchanged) #}
{%- if cdc_inputs_unchanged() -%}
{{ cdc_nothing_new() }}
{%- else -%}
{%- set plan = goldengate_trail_files_to_write(
    ref('int_goldengate__trail_chunks_reassembled')) %}
{%- set tables = cdc_tables_of('goldengate') %}
{%- set trail_name = cdc_var('goldengate_trail_name') %}
{%- set json_name = cdc_var('goldengate_json_name') %}

with

trail_records as (

    select sequenced.*
    from {{ ref('int_goldengate__trail_records_sequenced') }} as sequenced
    where
        sequenced.disposition = 'change'
        and {{ goldengate_trail_files_filter(plan, 'sequenced') }}

),

json_staged as (

    select * from {{ ref('stg_goldengate__json_messages') }}
    where message_error is null

),

json_copies_ranked as (

    select
        json_staged.*,
        row_number() over (
            partition by
                upper(json_staged.source_table_name), json_staged.order_key
            order by
                json_staged.loaded_at,
                json_staged.kafka_partition,
                json_staged.kafka_offset
        ) as copy_number,
        min(json_staged.loaded_at) over (
            partition by
                upper(json_staged.source_table_name), json_staged.order_key
        ) as first_staged_at
    from json_staged

),

json_copies_compared as (

    select
        json_copies_ranked.*,
        first_value(json_copies_ranked.content_hash) over (
            partition by
                upper(json_copies_ranked.source_table_name),
                json_copies_ranked.order_key
            order by json_copies_ranked.copy_number
        ) as first_content_hash,
        size(collect_set(
            case
                when
                    json_copies_ranked.loaded_at
                    = json_copies_ranked.first_staged_at
                    then json_copies_ranked.content_hash
            end
        ) over (
            partition by
                upper(json_copies_ranked.source_table_name),
                json_copies_ranked.order_key
        )) as contents_in_first_run
    from json_copies_ranked

),

json_messages as (

    select
        json_copies_compared.*,
        case
            when json_copies_compared.contents_in_first_run > 1
                then 'conflicting'
            when
                json_copies_compared.content_hash
                != json_copies_compared.first_content_hash
                then 'late_conflicting'
            when json_copies_compared.copy_number > 1 then 'exact_copy'
            else 'first'
        end as duplicate_status
    from json_copies_compared

),

candidates as (

    select
        'trail' as form,
        'ogg_trail' as source_system,
        {{ sql_string_literal(trail_name) }} as source_instance,
        {{ sql_string_literal('ogg:' ~ trail_name) }} as order_scope,
        trail_records.landed_table,
        trail_records.record_id as raw_key,
        concat(
            trail_records.landed_table, ':',
            array_join(trail_records.record_ids, ',')
        ) as raw_source,
        trail_records.source_table_name,
        trail_records.io_kind as change_kind,
        trail_records.io_type,
        trail_records.before_after,
        trail_records.order_key,
        case
            when trail_records.io_kind = 'U'
                then trail_records.update_before_map
            else trail_records.before_map
        end as before_map,
        trail_records.after_map,
        cast(null as array<string>) as primary_keys,
        trail_records.transaction_id as txn_id,
        trail_records.transaction_sequence as txn_seq,
        trail_records.closes_transaction as txn_last,
        trail_records.is_transaction_complete,
        trail_records.io_time as op_ts,
        filter(
            array(
                case when trail_records.undo_flag = 1 then 'undo' end,
                case
                    when trail_records.format_type = 'F'
                        then 'fetched_not_logged'
                end,
                case
                    when trail_records.chunk_count > 1
                        then 'reassembled_from_chunks'
                end,
                case
                    when trail_records.paired_before_record_id is not null
                        then concat(
                            'before_image_from:',
                            trail_records.paired_before_record_id
                        )
                end
            ),
            flag -> flag is not null
        ) as base_flags,
        'first' as duplicate_status,
        to_json(named_struct(
            'record_ids', trail_records.record_ids,
            'io_type', trail_records.io_type,
            'before_after', trail_records.before_after,
            'table_name', trail_records.source_table_name,
            'before', trail_records.update_before_map,
            'after', trail_records.after_map
        )) as record_json,
        trail_records.change_loaded_at as loaded_at,
        trail_records.trail_seqno
    from trail_records

    union all

    select
        'json' as form,
        'ogg_json' as source_system,
        {{ sql_string_literal(json_name) }} as source_instance,
        {{ sql_string_literal('ogg:' ~ json_name) }} as order_scope,
        json_messages.landed_table,
        json_messages.message_id as raw_key,
        concat(json_messages.landed_table, ':', json_messages.message_id)
            as raw_source,
        json_messages.source_table_name,
        case json_messages.op_type
            when 'T' then 'TRUNCATE'
            else json_messages.op_type
        end as change_kind,
        cast(null as int) as io_type,
        cast(null as string) as before_after,
        json_messages.order_key,
        json_messages.before_map,
        json_messages.after_map,
        json_messages.primary_keys,
        json_messages.tokens['6'] as txn_id,
        cast(null as bigint) as txn_seq,
        cast(null as boolean) as txn_last,
        true as is_transaction_complete,
        json_messages.op_ts,
        filter(
            array(
                case
                    when
                        json_messages.op_type in ('U', 'D')
                        and json_messages.before_map is null
                        then 'before_image_missing'
                end
            ),
            flag -> flag is not null
        ) as base_flags,
        json_messages.duplicate_status,
        to_json(named_struct(
            'message_id', json_messages.message_id,
            'value', json_messages.message_value
        )) as record_json,
        json_messages.loaded_at,
        cast(null as bigint) as trail_seqno
    from json_messages

),

routed as (

    select
        candidates.*,
        {{ goldengate_table_lookup() }}[
            upper(concat(candidates.form, '|', candidates.source_table_name))
        ] as source_table
    from candidates

),

valued as (

    select
        routed.*,
        {{ goldengate_image_values(
            tables, 'routed.after_map', 'routed.source_table'
        ) }} as after_values,
        {{ goldengate_image_values(
            tables, 'routed.before_map', 'routed.source_table'
        ) }} as before_values,
        case routed.source_table
            {%- for table_name in tables %}
            when {{ sql_string_literal(table_name) }}
                then concat(
                    {{ goldengate_image_extra_columns(
                        table_name, 'coalesce(routed.after_map, map())') }},
                    {{ goldengate_image_extra_columns(
                        table_name, 'coalesce(routed.before_map, map())') }}
                )
            {%- endfor %}
        end as extra_columns,
        case routed.source_table
            {%- for table_name in tables %}
            when {{ sql_string_literal(table_name) }}
                then {{ sql_string_array(cdc_key_columns(table_name)) }}
            {%- endfor %}
        end as key_columns
    from routed

),

imaged as (

    select
        valued.*,
        map_from_entries(transform(
            filter(valued.after_values, value -> value.is_present),
            value -> struct(value.column, value.text)
        )) as after_image_read,
        map_from_entries(transform(
            filter(valued.before_values, value -> value.is_present),
            value -> struct(value.column, value.text)
        )) as before_image_read
    from valued

),

keyed as (

    select
        imaged.*,
        {# the key after the change: from the after image (I, U; a U
           lacking a key column takes it from its before image), the before
           image for D (the after image when a JSON delete has only that) #}
        map_from_entries(transform(
            imaged.key_columns,
            key_column -> struct(
                key_column,
                case
                    when
                        imaged.change_kind = 'D'
                        and imaged.before_map is not null
                        then imaged.before_image_read[key_column]
                    when
                        map_contains_key(
                            coalesce(imaged.after_image_read, map()), key_column
                        )
                        then imaged.after_image_read[key_column]
                    else imaged.before_image_read[key_column]
                end
            )
        )) as pk,
        case
            when
                imaged.change_kind = 'U'
                and imaged.before_map is not null
                and forall(
                    imaged.key_columns,
                    key_column
                    -> imaged.before_image_read[key_column] is not null
                )
                then map_from_entries(transform(
                    imaged.key_columns,
                    key_column -> struct(
                        key_column, imaged.before_image_read[key_column]
                    )
                ))
        end as pk_before_update
    from imaged

),

judged as (

    select
        keyed.*,
        {{ cdc_pk_string_of_map('keyed.pk') }} as pk_string,
        coalesce(
            {{ cdc_pk_string_of_map('keyed.pk_before_update') }}
            != {{ cdc_pk_string_of_map('keyed.pk') }},
            false
        ) as is_key_changed,
        nullif(concat_ws(
            '; ',
            case
                when keyed.duplicate_status = 'conflicting'
                    then concat(
                        'conflicting duplicate: pos ', keyed.order_key,
                        ' of ', keyed.source_table_name,
                        ' delivered with different content'
                    )
                when keyed.duplicate_status = 'late_conflicting'
                    then concat(
                        'late conflicting duplicate: pos ', keyed.order_key,
                        ' of ', keyed.source_table_name,
                        ' was staged before with other content (the first ',
                        'copy stays)'
                    )
            end,
            case
                when keyed.source_table is null
                    then concat(
                        keyed.form, ' record for table ',
                        coalesce(keyed.source_table_name, '(none)'),
                        ', which is not a goldengate table of var cdc_tables',
                        ' with form ', keyed.form
                    )
            end,
            nullif(array_join(transform(
                keyed.extra_columns,
                column_name -> concat(
                    'column ', column_name, ' is not a column of table ',
                    keyed.source_table
                )
            ), '; '), ''),
            nullif(array_join(transform(
                filter(
                    concat(keyed.after_values, keyed.before_values),
                    value -> value.occurrences > 1
                ),
                value -> concat(
                    'column ', value.column, ' is named more than once'
                )
            ), '; '), ''),
            nullif(array_join(transform(
                filter(
                    keyed.after_values,
                    value -> value.is_present
                    and value.raw is not null
                    and value.text is null
                ),
                value -> coalesce(
                    value.binary_error,
                    concat(
                        'column ', value.column, ': ', left(value.raw, 60),
                        ' is not a valid ', value.type
                    )
                )
            ), '; '), ''),
            nullif(array_join(transform(
                filter(
                    keyed.before_values,
                    value -> value.is_present
                    and value.raw is not null
                    and value.text is null
                ),
                value -> coalesce(
                    concat(value.binary_error, ' (before image)'),
                    concat(
                        'column ', value.column, ' (before image): ',
                        left(value.raw, 60), ' is not a valid ', value.type
                    )
                )
            ), '; '), ''),
            case
                when keyed.change_kind in ('I', 'U', 'D')
                    then nullif(array_join(transform(
                        filter(
                            keyed.key_columns,
                            key_column -> keyed.pk[key_column] is null
                        ),
                        key_column -> concat(
                            'NULL or absent key value in column ', key_column
                        )
                    ), '; '), '')
            end,
            case
                when
                    keyed.primary_keys is not null
                    and keyed.source_table is not null
                    and transform(keyed.primary_keys, name -> lower(name))
                    != keyed.key_columns
                    then concat(
                        'primary_keys [', array_join(keyed.primary_keys, ', '),
                        '] differ from key_columns [',
                        array_join(keyed.key_columns, ', '), ']'
                    )
            end
        ), '') as judge_error
    from keyed

),

final as (

    select
        judged.form,
        judged.source_system,
        judged.source_instance,
        judged.order_scope,
        judged.landed_table,
        judged.raw_key,
        judged.raw_source,
        judged.source_table_name,
        judged.source_table,
        judged.change_kind,
        judged.io_type,
        judged.order_key,
        judged.txn_id,
        judged.txn_seq,
        judged.txn_last,
        judged.is_transaction_complete,
        judged.op_ts,
        judged.pk,
        judged.pk_string,
        case
            when judged.is_key_changed then judged.pk_before_update
        end as pk_before,
        judged.is_key_changed as pk_changed,
        case
            when
                judged.change_kind in ('U', 'D')
                and judged.before_map is not null
                then judged.before_image_read
        end as before_image,
        case
            when judged.change_kind in ('I', 'U') then judged.after_image_read
        end as after_image,
        case
            when judged.change_kind = 'D'
                then transform(
                    filter(judged.before_values, value -> value.is_present),
                    value -> value.column
                )
            when judged.change_kind in ('I', 'U')
                then transform(
                    filter(judged.after_values, value -> value.is_present),
                    value -> value.column
                )
        end as present_columns,
        case
            when judged.change_kind = 'D'
                then forall(judged.before_values, value -> value.is_present)
            when judged.change_kind in ('I', 'U')
                then forall(judged.after_values, value -> value.is_present)
            else false
        end as image_complete,
        {# U: the columns it carries, less those known unchanged: a key
           column of an unchanged key, a column whose before value is the
           same (spec E.5) #}
        case
            when judged.change_kind = 'U'
                then transform(
                    filter(
                        judged.after_values,
                        value -> value.is_present
                        and not (value.is_key and not judged.is_key_changed)
                        and not exists(
                            judged.before_values,
                            before_value -> before_value.column = value.column
                            and before_value.is_present
                            and before_value.text <=> value.text
                        )
                    ),
                    value -> value.column
                )
        end as changed_columns,
        judged.base_flags,
        judged.duplicate_status,
        judged.judge_error,
        judged.record_json,
        judged.loaded_at,
        judged.trail_seqno
    from judged

)

select * from final
{%- endif %}
