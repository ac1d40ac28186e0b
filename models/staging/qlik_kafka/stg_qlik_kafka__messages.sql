{{
    config(
        enabled=cdc_source_system_enabled('qlik_kafka'),
        pre_hook=["{{ cdc_write_started('loaded_at') }}"],
        post_hook=["{{ cdc_write_finished() }}"]
    )
}}
{#- One row per landed Kafka message of every Qlik topic (spec B.2 to B.4):
    the value parsed as JSON, with or without the atMSG envelope, into a
    metadata (MD) or data (DT) message; headers typed; data and beforeData as
    text maps. envelope_error holds what is wrong without looking at metadata.
    Append-only: a run stages the messages whose (topic, partition, offset,
    value) is not staged yet, so a batch landed again is not staged twice. Landed
    files: each message records its file (landed_file, landed_file_modified_at)
    and a run reads only the files not staged yet under that path and
    modification time (cdc_files_not_staged), so its cost follows the new files. #}
{%- set metadata_topic = qlik_kafka_checked_topic(
    cdc_var('qlik_kafka_metadata_topic'), 'var qlik_kafka_metadata_topic') %}
{#- files mode, JSON Lines: the reader's corrupt-record column (a line that is
    not a JSON object), quarantined with its own reason #}
{%- set malformed = cdc_landing_malformed_column('qlik_kafka') %}
{%- set topics = {} %}
{%- for table_name in cdc_tables_of('qlik_kafka') %}
{%- do topics.update({qlik_kafka_topic(table_name): table_name}) %}
{%- endfor %}
{%- set payload_type -%}
data: map<string, string>,
beforeData: map<string, string>,
headers: map<string, string>,
schema: string,
table: string,
schemaId: string,
lineage: map<string, string>,
tableStructure: struct<
    tableColumns: map<string, struct<
        ordinal: string, type: string, length: string, precision: string,
        scale: string, primaryKeyPosition: string
    >>
>
{%- endset %}
{%- set value_type = 'struct<magic: string, type: string, message: struct<'
    ~ payload_type ~ '>, ' ~ payload_type ~ '>' %}
{#- one query a run, for every landed table: the files staged already #}
{%- set not_staged = cdc_files_not_staged('qlik_kafka', 'landed') %}
{%- for topic in topics %}
{{ depends_on_landing_seed(qlik_kafka_landed_table_name(topic), 'qlik_kafka') }}
{%- endfor %}
{{ depends_on_landing_seed(metadata_topic, 'qlik_kafka') }}

with

{#- a topic is text (files mode: any folder name): a string literal here;
    it names the source table and the CTE through qlik_kafka_landed_table_name #}
{% for topic, table_name in topics.items() -%}
{%- set landed_name = qlik_kafka_landed_table_name(topic) %}
{{ landed_name }}_landed as (

    select
        {{ sql_string_literal(topic) }} as landed_table,
        {{ sql_string_literal(table_name) }} as topic_table,
        landed.*,
        {{ cdc_landed_file_columns('qlik_kafka') }}
    from {{ source('qlik_kafka', landed_name) }} as landed
    where
        {{ cdc_landing_files_filter('qlik_kafka', topic, 'landed') }}
        and {{ not_staged }}

),

{% endfor -%}
metadata_landed as (

    select
        {{ sql_string_literal(metadata_topic) }} as landed_table,
        cast(null as string) as topic_table,
        landed.*,
        {{ cdc_landed_file_columns('qlik_kafka') }}
    from {{ source('qlik_kafka', 'metadata') }} as landed
    where
        {{ cdc_landing_files_filter('qlik_kafka', metadata_topic, 'landed') }}
        and {{ not_staged }}

),

landed as (

    -- noqa: disable=RF06
    {% for topic in topics -%}
    {%- set landed_cte = qlik_kafka_landed_table_name(topic) ~ '_landed' %}
    select
        {{ landed_cte }}.landed_table,
        {{ landed_cte }}.topic_table,
        {{ landed_cte }}.landed_file,
        {{ landed_cte }}.landed_file_modified_at,
        {{ cdc_topic_record_columns(landed_cte, malformed) }}
    from {{ landed_cte }}
    union all
    {% endfor -%}
    select
        metadata_landed.landed_table,
        metadata_landed.topic_table,
        metadata_landed.landed_file,
        metadata_landed.landed_file_modified_at,
        {{ cdc_topic_record_columns('metadata_landed', malformed) }}
    from metadata_landed
    -- noqa: enable=RF06

),

{{ cdc_topic_messages_not_staged('landed') }},

parsed as (

    select
        new_messages.*,
        try_parse_json(new_messages.message_value) as value_variant,
        from_json(
            new_messages.message_value, {{ sql_string_literal(value_type) }}
        ) as value_parsed
    from new_messages

),

-- noqa: disable=CP02, RF04
unwrapped as (

    select
        parsed.*,
        ---------- envelope (spec B.2)
        parsed.value_parsed.magic is not null
        or parsed.value_parsed.message is not null as is_enveloped,
        parsed.value_parsed.magic as envelope_magic,
        parsed.value_parsed.type as envelope_type,
        case
            when
                parsed.value_parsed.magic is not null
                or parsed.value_parsed.message is not null
                then parsed.value_parsed.message
            else named_struct(
                'data', parsed.value_parsed.data,
                'beforeData', parsed.value_parsed.beforeData,
                'headers', parsed.value_parsed.headers,
                'schema', parsed.value_parsed.schema,
                'table', parsed.value_parsed.table,
                'schemaId', parsed.value_parsed.schemaId,
                'lineage', parsed.value_parsed.lineage,
                'tableStructure', parsed.value_parsed.tableStructure
            )
        end as payload
    from parsed

),

typed as (

    select
        ---------- where Kafka delivered it
        unwrapped.landed_table,
        unwrapped.topic,
        unwrapped.kafka_partition,
        unwrapped.kafka_offset,
        unwrapped.message_id,
        unwrapped.message_key,
        unwrapped.message_value,
        unwrapped.value_hash,
        unwrapped.kafka_timestamp,
        unwrapped.malformed_record,
        unwrapped.landed_file,
        unwrapped.landed_file_modified_at,

        ---------- what kind of message
        unwrapped.is_enveloped,
        unwrapped.envelope_magic,
        case
            when unwrapped.is_enveloped then unwrapped.envelope_type
            when
                unwrapped.payload.lineage is not null
                or unwrapped.payload.tableStructure is not null
                then 'MD'
            when
                unwrapped.payload.headers is not null
                or unwrapped.payload.data is not null
                or unwrapped.payload.beforeData is not null
                then 'DT'
        end as message_type,

        ---------- metadata message (spec B.3)
        unwrapped.payload.schemaId as schema_id,
        unwrapped.payload.lineage['server'] as lineage_server,
        unwrapped.payload.lineage['task'] as lineage_task,
        unwrapped.payload.lineage['schema'] as lineage_schema,
        unwrapped.payload.lineage['table'] as lineage_table,
        unwrapped.payload.lineage['tableVersion'] as table_version_text,
        try_cast(
            unwrapped.payload.lineage['tableVersion'] as int
        ) as table_version,
        try_cast(
            unwrapped.payload.lineage['timestamp'] as timestamp
        ) as lineage_at,
        unwrapped.payload.tableStructure.tableColumns as table_columns,

        ---------- data message (spec B.4)
        unwrapped.payload.schema as message_schema,
        unwrapped.payload.table as message_table,
        coalesce(
            unwrapped.topic_table, lower(unwrapped.payload.table)
        ) as source_table,
        unwrapped.payload.headers['operation'] as operation,
        unwrapped.payload.headers['changeSequence'] as change_seq,
        try_cast(
            concat(
                substr(unwrapped.payload.headers['changeSequence'], 1, 4), '-',
                substr(unwrapped.payload.headers['changeSequence'], 5, 2), '-',
                substr(unwrapped.payload.headers['changeSequence'], 7, 2), ' ',
                substr(unwrapped.payload.headers['changeSequence'], 9, 2), ':',
                substr(unwrapped.payload.headers['changeSequence'], 11, 2), ':',
                substr(unwrapped.payload.headers['changeSequence'], 13, 2), '.',
                substr(unwrapped.payload.headers['changeSequence'], 15, 2)
            ) as timestamp
        ) as change_seq_at,
        try_cast(
            unwrapped.payload.headers['timestamp'] as timestamp
        ) as op_ts,
        unwrapped.payload.headers['streamPosition'] as stream_position,
        unwrapped.payload.headers['transactionId'] as transaction_id,
        unwrapped.payload.headers['changeMask'] as change_mask,
        unwrapped.payload.headers['columnMask'] as column_mask,
        unwrapped.payload.headers['externalSchemaId'] as external_schema_id,
        try_cast(
            unwrapped.payload.headers['transactionEventCounter'] as bigint
        ) as transaction_event_counter,
        try_cast(
            unwrapped.payload.headers['transactionLastEvent'] as boolean
        ) as is_transaction_last_event,
        unwrapped.payload.data,
        unwrapped.payload.beforeData as before_data,
        unwrapped.payload.headers,
        unwrapped.topic_table,
        unwrapped.value_variant,
        unwrapped.value_parsed
    from unwrapped

),

-- noqa: enable=CP02, RF04
judged as (

    select
        typed.* except (topic_table, value_variant, value_parsed),

        ---------- judgement without metadata (spec B.8)
        nullif(concat_ws(
            '; ',
            case
                when typed.malformed_record is not null
                    then 'landed line is not a JSON object (JSON Lines file)'
                when typed.message_value is null then 'message has no value'
                when typed.value_variant is null then 'value is not JSON'
                when
                    schema_of_variant(typed.value_variant) not like 'OBJECT%'
                    then 'value is not a JSON object'
                when
                    typed.is_enveloped
                    and coalesce(typed.envelope_magic, '') != 'atMSG'
                    then concat(
                        'envelope magic is ',
                        coalesce(typed.envelope_magic, 'missing'),
                        ', not atMSG'
                    )
                when
                    typed.message_type is null
                    or typed.message_type not in ('MD', 'DT')
                    then concat(
                        'message type ',
                        coalesce(typed.message_type, 'unknown'),
                        ' is neither MD nor DT'
                    )
            end,
            case
                when typed.kafka_partition is null or typed.kafka_offset is null
                    then 'partition or offset missing'
            end,
            case
                when typed.message_type = 'MD' and typed.table_version is null
                    then concat(
                        'metadata tableVersion ',
                        coalesce(typed.table_version_text, 'missing'),
                        ' is not an integer'
                    )
            end,
            case
                when typed.message_type = 'MD' and typed.lineage_table is null
                    then 'metadata names no table'
            end,
            case
                when typed.message_type = 'MD' and typed.table_columns is null
                    then 'metadata has no tableColumns'
            end,
            case
                when typed.message_type != 'DT' then null
                when typed.source_table is null
                    then 'data message names no table'
                when
                    typed.topic_table is not null
                    and typed.message_table is not null
                    and lower(typed.message_table) != typed.topic_table
                    then concat(
                        'message names table ', typed.message_table,
                        ' but topic ', typed.landed_table, ' carries ',
                        typed.topic_table
                    )
                when
                    typed.topic_table is null
                    and not array_contains(
                        {{ sql_string_array(cdc_tables_of('qlik_kafka')) }},
                        typed.source_table
                    )
                    then concat(
                        'data message for table ', typed.message_table,
                        ', which is not a qlik_kafka table of var cdc_tables'
                    )
            end,
            case
                when typed.message_type != 'DT' then null
                when typed.operation is null then 'operation missing'
                when
                    typed.operation
                    not in ('REFRESH', 'INSERT', 'UPDATE', 'DELETE')
                    then concat(
                        'operation ', typed.operation,
                        ' is not REFRESH, INSERT, UPDATE or DELETE'
                    )
            end,
            case
                when
                    typed.message_type = 'DT'
                    and typed.operation in ('INSERT', 'UPDATE', 'DELETE')
                    then nullif(concat_ws(
                        '; ',
                        case
                            when typed.change_seq is null
                                then 'CDC operation without changeSequence'
                            when
                                not typed.change_seq rlike '^[0-9]{35}$'
                                or typed.change_seq_at is null
                                then concat(
                                    'changeSequence ', typed.change_seq,
                                    ' is not 35 digits starting with a time'
                                )
                        end,
                        case
                            when typed.transaction_id is null
                                then 'CDC operation without transactionId'
                        end,
                        case
                            when
                                typed.headers['transactionEventCounter']
                                is not null
                                and typed.transaction_event_counter is null
                                then 'transactionEventCounter is not an integer'
                        end,
                        case
                            when
                                typed.headers['transactionLastEvent']
                                is not null
                                and typed.is_transaction_last_event is null
                                then 'transactionLastEvent is not a boolean'
                        end,
                        case
                            when
                                typed.headers['timestamp'] is not null
                                and typed.op_ts is null
                                then concat(
                                    'timestamp ', typed.headers['timestamp'],
                                    ' is not a time'
                                )
                        end
                    ), '')
            end,
            case
                when typed.message_type != 'DT' then null
                when
                    typed.operation in ('REFRESH', 'INSERT', 'UPDATE')
                    and typed.data is null
                    then concat(typed.operation, ' without data')
                when
                    typed.operation = 'DELETE'
                    and typed.data is null
                    and typed.before_data is null
                    then 'DELETE without data or beforeData'
            end
        ), '') as envelope_error,
        current_timestamp() as loaded_at
    from typed

)

select * from judged
