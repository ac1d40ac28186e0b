{{
    config(
        materialized='table',
        enabled=cdc_source_system_enabled('openedge_cdc')
    )
}}
{#- One row per landed _Cdc-Change-Tracking row (spec D.3), read by the
    release's field names (openedge_cdc_field_names): typed, its table resolved
    from _Source-Table-Number, judged (spec D.10). Exact copies delivered again
    collapse to one row. A table rebuilt each run: consumers may purge rows and
    rewrite _User-Misc (spec D.1). #}
{%- set names = openedge_cdc_field_names() %}
{%- set malformed_column = cdc_landing_malformed_column('openedge_cdc') %}
{%- set tracking = cdc_var('openedge_cdc_tracking_table') %}
{%- set landed = openedge_cdc_landed_names(
    source('openedge_cdc', 'change_tracking')) %}
{%- set tables = {} %}
{%- for table_name in cdc_tables_of('openedge_cdc') %}
{%- do tables.update({table_name: openedge_cdc_table_settings(table_name)}) %}
{%- endfor %}
{{ depends_on_landing_seed(tracking, 'openedge_cdc') }}

with

source as (

    select landed.*
    from {{ source('openedge_cdc', 'change_tracking') }} as landed
    where {{ cdc_landing_files_filter('openedge_cdc', tracking, 'landed') }}

),

texts as (

    select
        -- noqa: disable=LT02
        {%- for role in [
            'policy_id', 'tran_id', 'time_stamp', 'change_sequence',
            'operation', 'field_map', 'recid', 'source_table_number',
            'partition_id', 'tenant_id', 'changed_columns'
        ] %}
        {{ openedge_cdc_landed_field('source', names[role], landed) }}
            as {{ role }}_text,
        {%- endfor %}
        -- noqa: enable=LT02
        {{ cdc_malformed_record('source', malformed_column) }}
            as malformed_record
    from source

),

distinct_rows as (

    {# an exact copy delivered again (a late batch re-sent) is one row; shuffled
       by the identity the count of rows_with_this_identity partitions by #}
    {{ cdc_distinct_rows('texts', [
        ['source_table_number',
            'try_cast(identified.source_table_number_text as int)'],
        ['change_sequence',
            'try_cast(identified.change_sequence_text as bigint)'],
        ['operation', 'try_cast(identified.operation_text as int)'],
    ]) | indent(4) }}

),

typed as (

    select
        distinct_rows.*,
        try_cast(distinct_rows.tran_id_text as bigint) as tran_id,
        try_cast(distinct_rows.time_stamp_text as timestamp) as op_ts,
        try_cast(distinct_rows.recid_text as bigint) as recid,
        try_cast(distinct_rows.partition_id_text as int) as partition_id,
        try_cast(distinct_rows.tenant_id_text as int) as tenant_id,
        filter(
            transform(
                split(distinct_rows.changed_columns_text, ','),
                name -> lower(trim(name))
            ),
            name -> name != ''
        ) as changed_columns
    from distinct_rows

),

resolved as (

    select
        typed.*,
        case typed.source_table_number
            {%- for table_name, table in tables.items() %}
            when {{ table.table_number }}
                then {{ sql_string_literal(table_name) }}
            {%- endfor %}
        end as source_table,
        case typed.source_table_number
            {%- for table_name, table in tables.items() %}
            when {{ table.table_number }} then {{ table.level }}
            {%- endfor %}
        end as policy_level,
        count(*) over (
            partition by
                typed.source_table_number,
                typed.change_sequence,
                typed.operation
        ) as rows_with_this_identity
    from typed

),

judged as (

    select
        resolved.source_table,
        resolved.source_table_number,
        resolved.policy_level,
        resolved.change_sequence,
        lpad(cast(resolved.change_sequence as string), 20, '0') as order_key,
        resolved.operation,
        resolved.tran_id,
        resolved.op_ts,
        resolved.policy_id_text as policy_id,
        resolved.recid,
        resolved.partition_id,
        resolved.tenant_id,
        resolved.field_map_text as field_map,
        resolved.changed_columns,
        resolved.malformed_record,
        case
            when resolved.malformed_record is not null
                then {{ cdc_malformed_reason() }}
            else nullif(concat_ws(
                '; ',
                {{ openedge_cdc_number_error(
                    'resolved.change_sequence_text', 'resolved.change_sequence',
                    names.change_sequence) }},
                case
                    when resolved.change_sequence < 0
                        then concat(
                            {{ sql_string_literal(
                                names.change_sequence ~ ' ') }},
                            resolved.change_sequence_text,
                            ' is negative'
                        )
                end,
                {{ openedge_cdc_operation_error(
                    'resolved', names.operation, 1, 12,
                    'an operation code (1 to 12, spec D.2)') }},
                {{ openedge_cdc_number_error(
                    'resolved.source_table_number_text',
                    'resolved.source_table_number',
                    names.source_table_number) }},
                case
                    when
                        resolved.source_table_number is not null
                        and resolved.source_table is null
                        then concat(
                            {{ sql_string_literal(
                                names.source_table_number ~ ' ') }},
                            resolved.source_table_number_text,
                            ' is no table of var cdc_tables'
                        )
                end,
                {{ openedge_cdc_number_error(
                    'resolved.tran_id_text', 'resolved.tran_id',
                    names.tran_id) }},
                {{ openedge_cdc_number_error(
                    'resolved.time_stamp_text', 'resolved.op_ts',
                    names.time_stamp) }},
                {{ openedge_cdc_number_error(
                    'resolved.recid_text', 'resolved.recid',
                    names.recid, required=false) }},
                {{ openedge_cdc_number_error(
                    'resolved.partition_id_text', 'resolved.partition_id',
                    names.partition_id, required=false) }},
                {{ openedge_cdc_number_error(
                    'resolved.tenant_id_text', 'resolved.tenant_id',
                    names.tenant_id, required=false) }},
                case
                    when resolved.operation = 3 and resolved.policy_level < 3
                        then concat(
                            'before-update (3) tracking row in a level-',
                            resolved.policy_level,
                            ' table (only level 3 records before images)'
                        )
                end,
                case
                    when
                        resolved.policy_level < 2
                        and resolved.operation in (1, 2, 4)
                        and resolved.recid is null
                        then concat(
                            'level-', resolved.policy_level,
                            ' change without ',
                            {{ sql_string_literal(names.recid) }},
                            ': the only identity such a table has'
                        )
                end,
                case
                    when resolved.rows_with_this_identity > 1
                        then concat(
                            'conflicting duplicate: another tracking row has ',
                            'this table number, change sequence and operation'
                        )
                end
            ), '')
        end as invalid_reason,
        filter(
            array(
                case
                    when
                        resolved.policy_level = 0
                        and resolved.field_map_text is not null
                        then 'field_map_at_level_0'
                end
            ),
            flag -> flag is not null
        ) as flags
    from resolved

),

final as (

    select
        judged.*,
        judged.invalid_reason is null as is_valid
    from judged

)

select * from final
