{{
    config(
        enabled=cdc_source_system_enabled('goldengate'),
        pre_hook=["{{ cdc_write_started('loaded_at') }}"],
        post_hook=["{{ cdc_write_finished() }}"]
    )
}}
{#- One row per landed GoldenGate for Big Data JSON operation message (spec
    E.4): the value parsed (table, op_type, op_ts, current_ts, pos,
    primary_keys, tokens, before, after), pos split into the trail file
    sequence number and RBA (var goldengate_json_pos_sequence_digits) and made
    a fixed-width order_key. message_error lists what is wrong with the message
    by itself (spec E.6). Append-only: a message whose (topic, partition,
    offset, value) is staged already is not staged again. Landed files: each
    message records its file (landed_file, landed_file_modified_at) and a run
    reads only the files not staged yet under that path and modification time
    (cdc_files_not_staged), so its cost follows the new files. #}
{%- set landed_name = cdc_var('goldengate_json_table') %}
{%- set has_json = 'json' in goldengate_forms() %}
{%- set malformed = cdc_landing_malformed_column('goldengate') %}
{%- set sequence_digits = cdc_var('goldengate_json_pos_sequence_digits') %}
{%- if sequence_digits is not number or sequence_digits < 1
      or sequence_digits > 10 %}
{{ exceptions.raise_compiler_error(
    "stg_goldengate__json_messages: var goldengate_json_pos_sequence_digits must be an "
    ~ "integer from 1 to 10, got '" ~ sequence_digits ~ "'") }}
{%- endif %}
{%- set message_type -%}
struct<
    table: string, op_type: string, op_ts: string, current_ts: string,
    pos: string, primary_keys: array<string>, tokens: map<string, string>,
    before: map<string, string>, after: map<string, string>
>
{%- endset %}
{%- if has_json %}
{#- one query a run: the files staged already #}
{%- set not_staged = cdc_files_not_staged('goldengate', 'landed') %}
{{ depends_on_landing_seed(landed_name, 'goldengate') }}
{%- endif %}

with

landed as (

    -- noqa: disable=RF06
    {% if has_json -%}
    select
        {{ sql_string_literal(landed_name) }} as landed_table,
        {{ cdc_topic_record_columns('landed', malformed) }},
        {{ cdc_landed_file_columns('goldengate') }}
    from {{ source('goldengate', 'json_messages') }} as landed
    where
        {{ cdc_landing_files_filter('goldengate', landed_name, 'landed') }}
        and {{ not_staged }}
    {%- else -%}
    select
        cast(null as string) as landed_table,
        cast(null as string) as topic,
        cast(null as int) as kafka_partition,
        cast(null as bigint) as kafka_offset,
        cast(null as string) as message_key,
        cast(null as string) as message_value,
        cast(null as timestamp) as kafka_timestamp,
        cast(null as string) as malformed_record,
        cast(null as string) as landed_file,
        cast(null as timestamp) as landed_file_modified_at
    where false
    {%- endif %}
    -- noqa: enable=RF06

),

{{ cdc_topic_messages_not_staged('landed') }},

parsed as (

    select
        new_messages.*,
        try_parse_json(new_messages.message_value) as value_variant,
        from_json(
            new_messages.message_value, {{ sql_string_literal(message_type) }}
        ) as message
    from new_messages

),

-- noqa: disable=RF04
typed as (

    select
        ---------- where Kafka delivered it
        parsed.landed_table,
        parsed.topic,
        parsed.kafka_partition,
        parsed.kafka_offset,
        parsed.message_id,
        parsed.message_key,
        parsed.message_value,
        parsed.value_hash,
        parsed.kafka_timestamp,
        parsed.malformed_record,
        parsed.landed_file,
        parsed.landed_file_modified_at,

        ---------- the operation (spec E.4)
        trim(parsed.message.table) as source_table_name,
        upper(trim(parsed.message.op_type)) as op_type,
        parsed.message.op_ts as op_ts_text,
        try_cast(parsed.message.op_ts as timestamp) as op_ts,
        try_cast(parsed.message.current_ts as timestamp) as current_ts,
        trim(parsed.message.pos) as pos,
        parsed.message.primary_keys,
        parsed.message.tokens,
        parsed.message.before as before_map,
        parsed.message.after as after_map,
        {# the content that replay keeps: current_ts changes on replay
           (spec E.4), so it is not part of a copy's identity #}
        sha2(to_json(named_struct(
            'table', parsed.message.table,
            'op_type', parsed.message.op_type,
            'op_ts', parsed.message.op_ts,
            'pos', parsed.message.pos,
            'primary_keys', parsed.message.primary_keys,
            'tokens', parsed.message.tokens,
            'before', parsed.message.before,
            'after', parsed.message.after
        )), 256) as content_hash,
        parsed.value_variant
    from parsed

),
-- noqa: enable=RF04

positioned as (

    select
        typed.*,
        {# pos = trail file sequence number then RBA (spec E.4); the split
           is unconfirmed, so it is a var; leading zeros dropped to compare
           widths #}
        nullif(ltrim('0', left(typed.pos, {{ sequence_digits }})), '')
            as pos_sequence_digits,
        nullif(
            ltrim('0', substr(typed.pos, {{ sequence_digits + 1 }})), ''
        ) as pos_rba_digits
    from typed

),

ordered as (

    select
        positioned.*,
        case
            when
                positioned.pos rlike '^[0-9]+$'
                and length(positioned.pos) > {{ sequence_digits }}
                and length(coalesce(positioned.pos_rba_digits, '')) <= 20
                then concat(
                    lpad(
                        coalesce(positioned.pos_sequence_digits, '0'), 10, '0'
                    ),
                    lpad(coalesce(positioned.pos_rba_digits, '0'), 20, '0')
                )
        end as order_key
    from positioned

),

judged as (

    select
        ordered.* except (value_variant, pos_sequence_digits, pos_rba_digits),
        nullif(concat_ws(
            '; ',
            case
                when ordered.malformed_record is not null
                    then 'landed line is not a JSON object (JSON Lines file)'
                when ordered.message_value is null then 'message has no value'
                when ordered.value_variant is null then 'value is not JSON'
                when
                    schema_of_variant(ordered.value_variant) not like 'OBJECT%'
                    then 'value is not a JSON object'
            end,
            case
                when
                    ordered.value_variant is not null
                    and coalesce(ordered.source_table_name, '') = ''
                    then 'message names no table'
            end,
            case
                when ordered.value_variant is null then null
                when ordered.op_type is null then 'op_type missing'
                when ordered.op_type not in ('I', 'U', 'D', 'T')
                    then concat(
                        'op_type ', ordered.op_type, ' is not I, U, D or T'
                    )
            end,
            case
                when ordered.value_variant is null then null
                when ordered.pos is null then 'pos missing'
                when ordered.order_key is null
                    then concat(
                        'pos ', left(ordered.pos, 60),
                        {{ sql_string_literal(
                            ' is not a trail position (digits: '
                            ~ sequence_digits ~ ' of sequence number, then up to 20 '
                            ~ 'of RBA)') }}
                    )
            end,
            case
                when
                    ordered.op_ts_text is not null
                    and ordered.op_ts is null
                    then concat(
                        'op_ts ', left(ordered.op_ts_text, 60), ' is not a time'
                    )
            end,
            case
                when
                    ordered.op_type in ('I', 'U') and ordered.after_map is null
                    then concat(ordered.op_type, ' without after image')
                when
                    ordered.op_type = 'D'
                    and ordered.before_map is null
                    and ordered.after_map is null
                    then 'D without before image: the deleted key is unknown'
            end
        ), '') as message_error,
        current_timestamp() as loaded_at
    from ordered

)

select * from judged
