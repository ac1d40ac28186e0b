{{
    config(
        enabled=cdc_source_system_enabled('qlik_kafka'),
        materialized='incremental',
        incremental_strategy='append',
        on_schema_change='fail',
        pre_hook=[
            "{{ cdc_write_started('staged_at') }}",
            "{{ cdc_append_reset() }}"
        ],
        post_hook=["{{ cdc_write_finished() }}"]
    )
}}
{#- One row per staged data message whose envelope is valid, decoded with the
    metadata version in force for it (spec B.5, B.7): the version whose schemaId
    is the message's externalSchemaId when it has one, else the newest version
    published at or before the message (changeSequence time; REFRESH: its Kafka
    timestamp). changeMask and columnMask go through the hex-mask UDF (byte order:
    var qlik_kafka_hex_mask_byte_order); values are checked against the
    version's Qlik types and become canonical text (binary: its text read with
    the column's cdc_column_encoding, default hex). decode_error lists what
    keeps it out of the log. A table (it calls a Python UDF) that each run
    appends the messages staged since its last write to (cdc_append_plan: each
    message is decoded alone); it is decoded again whole when metadata has
    landed since (metadata that lands late decodes messages staged before it),
    when the code or vars changed, and after a write that never finished. #}
{%- set plan = cdc_append_plan(
    ref('stg_qlik_kafka__messages'),
    "upstream.message_type = 'DT' and upstream.envelope_error is null",
    'staged_at',
    ref('int_qlik_kafka__metadata_versions')) %}
{#- the messages this run decodes: those staged since the last write, or all #}
{%- set newly_staged = 'loaded_at > timestamp ' ~ sql_string_literal(plan.since)
    if plan.since else 'true' %}
{%- if plan.since and plan.newer == 0 %}
{{ cdc_nothing_new() }}
{%- else %}
{%- set byte_order = sql_string_literal(
    cdc_var('qlik_kafka_hex_mask_byte_order')) %}
{%- set tables = cdc_tables_of('qlik_kafka') %}
{#- binary columns (<table>.<column>): the encoding of their text
    (cdc_column_encoding, default hex) and the reason when a value is not
    valid in it #}
{%- set binary_reasons = {} %}
{%- set base64_columns = [] %}
{%- for table_name in tables %}
{%- for column in cdc_table_columns(table_name) if column.type == 'binary' %}
{%- set encoding = cdc_column_encoding(table_name, column.name) %}
{%- do binary_reasons.update({table_name ~ '.' ~ column.name:
    cdc_binary_text_error(column.name, encoding)}) %}
{%- if encoding == 'base64' %}
{%- do base64_columns.append(table_name ~ '.' ~ column.name) %}
{%- endif %}
{%- endfor %}
{%- endfor %}
{%- set column_id = "concat(masks_decoded.source_table, '.', col.column)" %}
{%- if base64_columns %}
{%- set encoding = 'case when array_contains(' ~ sql_string_array(base64_columns)
    ~ ', ' ~ column_id ~ ") then 'base64' else 'hex' end" %}
{%- else %}
{%- set encoding = none %}
{%- endif %}

with

data_messages as (

    {#- the staged file: the staging's own bookkeeping #}
    select * except (landed_file, landed_file_modified_at)
    from {{ ref('stg_qlik_kafka__messages') }}
    where
        message_type = 'DT'
        and envelope_error is null
        and {{ newly_staged }}

),

versions as (

    select * from {{ ref('int_qlik_kafka__metadata_versions') }}
    where is_in_force

),

timed as (

    select
        data_messages.*,
        coalesce(
            data_messages.change_seq_at, data_messages.kafka_timestamp
        ) as message_at
    from data_messages

),

version_candidates as (

    select
        timed.* except (table_version, table_columns),
        versions.table_version,
        versions.schema_id as version_schema_id,
        versions.table_columns,
        versions.column_count,
        versions.loaded_at as version_loaded_at,
        row_number() over (
            partition by timed.message_id, timed.value_hash
            order by versions.table_version desc
        ) as version_rank
    from timed
    left join versions
        on
            timed.source_table = versions.source_table
            and case
                when timed.external_schema_id is not null
                    then timed.external_schema_id = versions.schema_id
                else timed.message_at >= versions.lineage_at
            end

),

masks_decoded as (

    select
        version_candidates.* except (version_rank),
        decode_hex_change_mask(
            case
                when version_candidates.column_count is not null
                    then version_candidates.change_mask
            end,
            coalesce(version_candidates.column_count, 0),
            {{ byte_order }}
        ) as change_mask_decoded,
        decode_hex_change_mask(
            case
                when version_candidates.column_count is not null
                    then version_candidates.column_mask
            end,
            coalesce(version_candidates.column_count, 0),
            {{ byte_order }}
        ) as column_mask_decoded
    from version_candidates
    where version_candidates.version_rank = 1

),

columns_valued as (

    select
        masks_decoded.*,
        transform(
            masks_decoded.table_columns,
            col -> named_struct(
                'column', col.column,
                'source_name', col.source_name,
                'type', col.type,
                'is_key', col.key_position > 0,
                {# columnMask bit 0: not captured, unknown (spec B.5); no
                   columnMask: every column is there #}
                'is_present', masks_decoded.column_mask is null
                or coalesce(array_contains(
                    masks_decoded.column_mask_decoded.positions, col.ordinal - 1
                ), false),
                'after_raw', masks_decoded.data[col.source_name],
                'after_text', {{ qlik_kafka_value_text(
                    'masks_decoded.data[col.source_name]', 'col.type', encoding) }},
                'before_raw', masks_decoded.before_data[col.source_name],
                'before_text', {{ qlik_kafka_value_text(
                    'masks_decoded.before_data[col.source_name]', 'col.type',
                    encoding) }},
                {%- if binary_reasons %}
                'binary_error', case
                    when col.type in ('BLOB', 'BYTES')
                        then case {{ column_id }}
                            {%- for name, reason in binary_reasons.items() %}
                            when {{ sql_string_literal(name) }}
                                then {{ sql_string_literal(reason) }}
                            {%- endfor %}
                        end
                end
                {%- else %}
                'binary_error', cast(null as string)
                {%- endif %}
            )
        ) as column_values,
        transform(
            masks_decoded.change_mask_decoded.positions,
            position -> masks_decoded.table_columns[position].column
        ) as mask_columns,
        transform(
            filter(
                masks_decoded.table_columns,
                col -> not array_contains(
                    {{ sql_string_array(qlik_kafka_lob_types()) }}, col.type
                )
            ),
            col -> col.column
        ) as expected_insert_columns
    from masks_decoded

),

imaged as (

    select
        columns_valued.*,
        case
            when columns_valued.operation = 'DELETE'
                then coalesce(columns_valued.data, columns_valued.before_data)
        end as deleted_row,
        map_from_entries(transform(
            filter(columns_valued.column_values, value -> value.is_present),
            value -> struct(value.column, value.after_text)
        )) as data_image,
        map_from_entries(transform(
            filter(columns_valued.column_values, value -> value.is_present),
            value -> struct(value.column, value.before_text)
        )) as before_data_image
    from columns_valued

),

judged as (

    select
        imaged.*,
        case
            when imaged.operation = 'DELETE' and imaged.data is null
                then imaged.before_data_image
            when imaged.operation = 'DELETE' then imaged.data_image
            when imaged.before_data is not null
                then imaged.before_data_image
        end as before_image,
        case
            when imaged.operation != 'DELETE' then imaged.data_image
        end as after_image,
        nullif(concat_ws(
            '; ',
            case
                when imaged.column_count is null
                    then concat(
                        'no metadata for table ', imaged.source_table,
                        case
                            when imaged.external_schema_id is not null
                                then concat(
                                    ' with schemaId ', imaged.external_schema_id
                                )
                            else concat(
                                ' in force at ',
                                cast(imaged.message_at as string)
                            )
                        end
                    )
            end,
            case
                when imaged.change_mask_decoded.error is not null
                    then concat(
                        'changeMask ', imaged.change_mask, ': ',
                        imaged.change_mask_decoded.error, ' (tableVersion ',
                        imaged.table_version, ')'
                    )
            end,
            case
                when imaged.column_mask_decoded.error is not null
                    then concat(
                        'columnMask ', imaged.column_mask, ': ',
                        imaged.column_mask_decoded.error, ' (tableVersion ',
                        imaged.table_version, ')'
                    )
            end,
            case
                when
                    imaged.column_count is not null
                    and size(array_except(
                        map_keys(
                            map_concat(
                                coalesce(imaged.data, map()),
                                coalesce(imaged.before_data, map())
                            )
                        ),
                        transform(imaged.table_columns, col -> col.source_name)
                    )) > 0
                    then concat(
                        'columns not in tableVersion ', imaged.table_version,
                        ': ',
                        array_join(array_except(
                            map_keys(
                                map_concat(
                                    coalesce(imaged.data, map()),
                                    coalesce(imaged.before_data, map())
                                )
                            ),
                            transform(
                                imaged.table_columns, col -> col.source_name
                            )
                        ), ', ')
                    )
            end,
            nullif(array_join(transform(
                filter(
                    imaged.column_values,
                    value -> value.after_raw is not null
                    and value.after_text is null
                ),
                value -> coalesce(
                    value.binary_error,
                    concat(
                        'column ', value.source_name, ': ',
                        left(value.after_raw, 60),
                        ' is not a valid ', value.type
                    )
                )
            ), '; '), ''),
            nullif(array_join(transform(
                filter(
                    imaged.column_values,
                    value -> value.before_raw is not null
                    and value.before_text is null
                ),
                value -> coalesce(
                    concat(value.binary_error, ' (beforeData)'),
                    concat(
                        'column ', value.source_name, ' (beforeData): ',
                        left(value.before_raw, 60),
                        ' is not a valid ', value.type
                    )
                )
            ), '; '), ''),
            nullif(array_join(transform(
                filter(
                    imaged.column_values,
                    value -> value.is_key and (
                        not value.is_present
                        or case
                            when imaged.operation = 'DELETE'
                                then coalesce(
                                    value.after_raw, value.before_raw
                                ) is null
                            else value.after_raw is null
                        end
                    )
                ),
                value -> concat(
                    'NULL or uncaptured key value in column ', value.source_name
                )
            ), '; '), '')
        ), '') as decode_error,
        filter(
            array(
                case
                    when
                        imaged.operation = 'UPDATE'
                        and imaged.before_data is null
                        then 'before_image_unknown'
                end,
                case
                    when
                        imaged.operation = 'UPDATE'
                        and size(imaged.change_mask_decoded.positions) = 0
                        then 'no_column_changed'
                end,
                case
                    when
                        imaged.operation = 'DELETE' and imaged.data is null
                        then 'delete_from_before_data'
                end,
                case
                    when
                        size(filter(
                            imaged.column_values, value -> not value.is_present
                        )) > 0
                        then 'columns_not_captured'
                end
            ),
            flag -> flag is not null
        ) as flags
    from imaged

),

keyed as (

    select
        judged.*,
        case judged.source_table
            {%- for table_name in tables %}
            when {{ sql_string_literal(table_name) }}
                then {{ cdc_pk_map(
                    cdc_key_columns(table_name),
                    'coalesce(judged.after_image, judged.before_image)'
                ) }}
            {%- endfor %}
        end as pk,
        case
            when
                judged.operation = 'UPDATE' and judged.before_data is not null
                then case judged.source_table
                    {%- for table_name in tables %}
                    when {{ sql_string_literal(table_name) }}
                        then {{ cdc_pk_map(
                            cdc_key_columns(table_name), 'judged.before_image'
                        ) }}
                    {%- endfor %}
                end
        end as pk_before_update
    from judged

),

final as (

    select
        keyed.message_id,
        keyed.landed_table,
        keyed.topic,
        keyed.kafka_partition,
        keyed.kafka_offset,
        keyed.kafka_timestamp,
        keyed.message_value,
        keyed.value_hash,
        keyed.source_table,
        keyed.message_schema,
        keyed.operation,
        keyed.change_seq,
        keyed.change_seq_at,
        keyed.op_ts,
        keyed.transaction_id,
        keyed.transaction_event_counter,
        keyed.is_transaction_last_event,
        keyed.change_mask,
        keyed.column_mask,
        keyed.external_schema_id,
        keyed.table_version,
        keyed.mask_columns,
        keyed.expected_insert_columns,
        transform(
            filter(keyed.column_values, value -> value.is_present),
            value -> value.column
        ) as present_columns,
        size(filter(keyed.column_values, value -> not value.is_present)) = 0
        and keyed.column_count is not null as is_every_column_present,
        keyed.before_image,
        keyed.after_image,
        keyed.pk,
        {{ cdc_pk_string_of_map('keyed.pk') }} as pk_string,
        keyed.pk_before_update,
        keyed.flags,
        keyed.decode_error,
        keyed.decode_error is null as is_valid,
        keyed.loaded_at as staged_at,
        {# when the message became decodable: staged, or its metadata staged #}
        greatest(
            keyed.loaded_at, coalesce(keyed.version_loaded_at, keyed.loaded_at)
        ) as loaded_at
    from keyed

)

select * from final
{%- endif %}
