{{ config(enabled=cdc_source_system_enabled('qlik_kafka')) }}
{#- One row per staged metadata message (spec B.3): its table's column list for
    one tableVersion, sorted by ordinal, checked (spec B.8 and the table's
    configuration). is_in_force marks the one message per (table, version) that
    data messages decode with: the first valid copy; copies with the same
    columns collapse onto it, a copy with other columns makes the version
    conflicting (every copy quarantined, its data messages without metadata). #}
{%- set tables = cdc_tables_of('qlik_kafka') %}

with

metadata_messages as (

    {#- the staged file: the staging's own bookkeeping #}
    select * except (landed_file, landed_file_modified_at)
    from {{ ref('stg_qlik_kafka__messages') }}
    where message_type = 'MD' and envelope_error is null

),

columns_listed as (

    select
        metadata_messages.message_id,
        metadata_messages.landed_table,
        metadata_messages.kafka_partition,
        metadata_messages.kafka_offset,
        metadata_messages.schema_id,
        metadata_messages.lineage_task,
        metadata_messages.lineage_schema,
        metadata_messages.lineage_table,
        lower(metadata_messages.lineage_table) as source_table,
        metadata_messages.table_version,
        metadata_messages.lineage_at,
        metadata_messages.message_value,
        metadata_messages.loaded_at,
        array_sort(transform(
            map_entries(metadata_messages.table_columns),
            entry -> named_struct(
                'ordinal', try_cast(entry.value.ordinal as int),
                'source_name', entry.key,
                'column', lower(entry.key),
                'type', upper(entry.value.type),
                'length', try_cast(entry.value.length as int),
                'precision', try_cast(entry.value.precision as int),
                'scale', try_cast(entry.value.scale as int),
                'key_position', coalesce(
                    -- noqa: disable=CP02
                    try_cast(entry.value.primaryKeyPosition as int), 0
                    -- noqa: enable=CP02
                )
            )
        )) as table_columns
    from metadata_messages

),

described as (

    select
        columns_listed.*,
        size(columns_listed.table_columns) as column_count,
        transform(
            array_sort(
                filter(
                    columns_listed.table_columns, col -> col.key_position > 0
                ),
                (left_col, right_col) -> case
                    when left_col.key_position < right_col.key_position then -1
                    when left_col.key_position > right_col.key_position then 1
                    else 0
                end
            ),
            col -> col.column
        ) as key_columns,
        case columns_listed.source_table
            {%- for table_name in tables %}
            {%- set table = cdc_table_config(table_name) %}
            when {{ sql_string_literal(table_name) }}
                then named_struct(
                    'source_schema',
                    {{ sql_string_literal(table.get('source_schema', '')) }},
                    'key_columns',
                    {{ sql_string_array(cdc_key_columns(table_name)) }},
                    'columns',
                    {{ sql_string_array(cdc_table_columns(table_name)
                        | map(attribute='name') | list) }}
                )
            {%- endfor %}
        end as configured,
        sha2(to_json(columns_listed.table_columns), 256) as columns_hash
    from columns_listed

),

judged as (

    select
        described.*,
        nullif(concat_ws(
            '; ',
            case
                when described.configured is null
                    then concat(
                        'metadata for table ', described.lineage_table,
                        ', which is not a qlik_kafka table of var cdc_tables'
                    )
                when
                    described.lineage_schema is not null
                    and described.configured.source_schema != ''
                    and lower(described.lineage_schema)
                    != lower(described.configured.source_schema)
                    then concat(
                        'metadata schema ', described.lineage_schema,
                        ' is not the configured source_schema ',
                        described.configured.source_schema
                    )
            end,
            case
                when described.column_count = 0 then 'metadata lists no column'
                when
                    transform(described.table_columns, col -> col.ordinal)
                    != sequence(1, described.column_count)
                    then concat(
                        'ordinals are not 1 to ', described.column_count, ': ',
                        array_join(transform(
                            described.table_columns,
                            col -> coalesce(cast(col.ordinal as string), 'NULL')
                        ), ', ')
                    )
            end,
            case
                when
                    size(filter(
                        described.table_columns,
                        col -> col.type is null or not array_contains(
                            {{ sql_string_array(qlik_kafka_types()) }}, col.type
                        )
                    )) > 0
                    then concat('unknown type: ', array_join(transform(
                        filter(
                            described.table_columns,
                            col -> col.type is null or not array_contains(
                                {{ sql_string_array(qlik_kafka_types()) }},
                                col.type
                            )
                        ),
                        col -> concat(
                            col.source_name, ' ', coalesce(col.type, 'NULL')
                        )
                    ), ', '))
            end,
            case
                when
                    described.configured is not null
                    and described.key_columns
                    != described.configured.key_columns
                    then concat(
                        'metadata key (',
                        array_join(described.key_columns, ', '),
                        ') is not the configured key_columns (',
                        array_join(described.configured.key_columns, ', '), ')'
                    )
            end,
            case
                when
                    described.configured is not null
                    and size(array_except(
                        transform(described.table_columns, col -> col.column),
                        described.configured.columns
                    )) > 0
                    then concat(
                        'columns not declared in cdc_tables.',
                        described.source_table, '.columns: ',
                        array_join(array_except(
                            transform(
                                described.table_columns, col -> col.column
                            ),
                            described.configured.columns
                        ), ', ')
                    )
            end
        ), '') as own_error
    from described

),

versions_compared as (

    select
        judged.*,
        size(collect_set(judged.columns_hash) over (
            partition by judged.source_table, judged.table_version
        )) as column_lists_of_version,
        row_number() over (
            partition by judged.source_table, judged.table_version
            order by
                judged.loaded_at,
                judged.landed_table,
                judged.kafka_partition,
                judged.kafka_offset
        ) as copy_number
    from judged

),

final as (

    select
        versions_compared.message_id,
        versions_compared.landed_table,
        versions_compared.schema_id,
        versions_compared.lineage_task,
        versions_compared.lineage_schema,
        versions_compared.lineage_table,
        versions_compared.source_table,
        versions_compared.table_version,
        versions_compared.lineage_at,
        versions_compared.table_columns,
        versions_compared.column_count,
        versions_compared.key_columns,
        versions_compared.message_value,
        versions_compared.loaded_at,
        coalesce(
            versions_compared.own_error,
            case
                when versions_compared.column_lists_of_version > 1
                    then concat(
                        'conflicting metadata: tableVersion ',
                        versions_compared.table_version, ' of ',
                        versions_compared.lineage_table,
                        ' arrived with different column lists'
                    )
            end
        ) as metadata_error,
        versions_compared.copy_number = 1
        and versions_compared.own_error is null
        and versions_compared.column_lists_of_version = 1 as is_in_force
    from versions_compared

)

select * from final
