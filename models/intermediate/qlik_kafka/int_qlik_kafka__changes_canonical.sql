{{ config(enabled=cdc_source_system_enabled('qlik_kafka')) }}
{#- One row per canonical change (spec F.1, F.4 column B) from the Qlik Kafka
    messages: the first copy of each valid data message (exact copies
    collapsed, conflicting ones quarantined), plus one TRUNCATE per reload when
    var qlik_kafka_reload is reset. Ordered by changeSequence (never by Kafka
    offset); the baseline REFRESH rows at 35 zeros, a reload's at its batch's
    first message time with change number 0 (its TRUNCATE) and 1 (its rows).
    Transactions are judged here, over every logged change: a transaction whose
    last event (transactionLastEvent) or one of its events has not arrived is
    flagged transaction_incomplete. A view: the flags follow what has landed. #}
{%- set order_scope = 'qlik:' ~ cdc_var('qlik_kafka_task') %}
{%- set reset = cdc_var('qlik_kafka_reload') == 'reset' %}
{%- if cdc_var('qlik_kafka_reload') not in ['reset', 'upsert'] %}
{{ exceptions.raise_compiler_error(
    "int_qlik_kafka__changes_canonical: var qlik_kafka_reload must be reset or upsert, got '"
    ~ cdc_var('qlik_kafka_reload') ~ "'") }}
{%- endif %}

with

first_copies as (

    select * from {{ ref('int_qlik_kafka__messages_deduplicated') }} as message
    where {{ qlik_kafka_is_logged_copy('message') }}

),

transactions as (

    {{ qlik_kafka_transactions('first_copies') }}

),

positioned as (

    select
        first_copies.*,
        {{ qlik_kafka_order_key('first_copies') }} as order_key,
        coalesce(
            {{ cdc_pk_string_of_map('first_copies.pk_before_update') }}
            != first_copies.pk_string,
            false
        ) as is_key_changed,
        {{ qlik_kafka_transaction_complete('transactions') }}
            as is_transaction_complete
    from first_copies
    left join transactions
        on first_copies.transaction_id = transactions.transaction_id

),

changes as (

    select
        ---------- identity (spec F.1)
        sha2(
            concat_ws(
                '|', 'qlik_kafka', {{ sql_string_literal(order_scope) }},
                positioned.order_key,
                case
                    when positioned.operation = 'REFRESH'
                        then concat_ws(
                            '|', positioned.source_table, positioned.pk_string
                        )
                    else '0'
                end
            ),
            256
        ) as change_id,
        'qlik_kafka' as source_system,
        {{ sql_string_literal(cdc_var('qlik_kafka_task')) }} as source_instance,
        coalesce(
            positioned.message_schema,
            case positioned.source_table
                {%- for table_name in cdc_tables_of('qlik_kafka') %}
                when {{ sql_string_literal(table_name) }}
                    then {{ sql_string_literal(
                        cdc_table_config(table_name).get('source_schema', '')) }}
                {%- endfor %}
            end
        ) as source_schema,
        positioned.source_table,
        lower(positioned.source_table) as source_table_norm,

        ---------- operation (spec F.4: REFRESH, INSERT -> I)
        case positioned.operation
            when 'UPDATE' then 'U'
            when 'DELETE' then 'D'
            else 'I'
        end as op,
        cast(null as string) as control_op,
        positioned.operation = 'REFRESH' as is_snapshot,
        positioned.before_image is not null as has_before_image,

        ---------- key (metadata primaryKeyPosition = cdc_tables key_columns)
        positioned.pk,
        positioned.pk_string,
        case
            when positioned.is_key_changed then positioned.pk_before_update
        end as pk_before,
        positioned.is_key_changed as pk_changed,

        ---------- ordering and transaction (spec B.7, F.3)
        {{ sql_string_literal(order_scope) }} as order_scope,
        positioned.order_key,
        positioned.transaction_id as txn_id,
        positioned.transaction_event_counter as txn_seq,
        positioned.is_transaction_last_event as txn_last,
        cast(null as timestamp) as commit_ts,
        positioned.op_ts,
        {{ qlik_kafka_effective_at('positioned') }} as effective_at,

        ---------- images (spec B.5, B.6)
        case
            when positioned.operation in ('INSERT', 'UPDATE')
                then positioned.mask_columns
        end as changed_columns,
        positioned.present_columns,
        positioned.before_image,
        positioned.after_image,
        positioned.is_every_column_present as image_complete,
        false as needs_lookup,
        filter(
            concat(
                positioned.flags,
                array(
                    case
                        when
                            positioned.operation != 'REFRESH'
                            and not positioned.is_transaction_complete
                            then 'transaction_incomplete'
                    end,
                    case when positioned.is_reload then 'reload' end
                )
            ),
            flag -> flag is not null
        ) as flags,

        ---------- lineage
        positioned.message_id as raw_source,
        concat_ws(
            '|', positioned.source_table, positioned.change_identity
        ) as raw_key,
        positioned.loaded_at

    from positioned

),
{%- if reset %}

reloads as (

    {# reset: a reload replaces the table, so a TRUNCATE at the reload's
       position (change number 0) ends every key the reload does not bring #}
    select
        positioned.source_table,
        positioned.refresh_batch,
        {{ qlik_kafka_reload_order_key('positioned.refresh_batch_at', 0) }}
            as order_key,
        positioned.refresh_batch_at,
        max(positioned.loaded_at) as loaded_at
    from positioned
    where positioned.is_reload
    group by 1, 2, 3, 4

),

truncates as (

    select
        sha2(
            concat_ws(
                '|', 'qlik_kafka', {{ sql_string_literal(order_scope) }},
                reloads.order_key, reloads.source_table
            ),
            256
        ) as change_id,
        'qlik_kafka' as source_system,
        {{ sql_string_literal(cdc_var('qlik_kafka_task')) }} as source_instance,
        case reloads.source_table
            {%- for table_name in cdc_tables_of('qlik_kafka') %}
            when {{ sql_string_literal(table_name) }}
                then {{ sql_string_literal(
                    cdc_table_config(table_name).get('source_schema', '')) }}
            {%- endfor %}
        end as source_schema,
        reloads.source_table,
        lower(reloads.source_table) as source_table_norm,
        cast(null as string) as op,
        'TRUNCATE' as control_op,
        true as is_snapshot,
        false as has_before_image,
        cast(null as map<string, string>) as pk,  -- noqa: LT01
        cast(null as string) as pk_string,
        cast(null as map<string, string>) as pk_before,  -- noqa: LT01
        false as pk_changed,
        {{ sql_string_literal(order_scope) }} as order_scope,
        reloads.order_key,
        cast(null as string) as txn_id,
        cast(null as bigint) as txn_seq,
        cast(null as boolean) as txn_last,
        cast(null as timestamp) as commit_ts,
        cast(null as timestamp) as op_ts,
        reloads.refresh_batch_at as effective_at,
        cast(null as array<string>) as changed_columns,
        cast(null as array<string>) as present_columns,
        cast(null as map<string, string>) as before_image,  -- noqa: LT01
        cast(null as map<string, string>) as after_image,  -- noqa: LT01
        false as image_complete,
        false as needs_lookup,
        array('reload') as flags,
        'reload' as raw_source,
        concat_ws(
            '|', reloads.source_table, 'REFRESH',
            cast(reloads.refresh_batch as string)
        ) as raw_key,
        reloads.loaded_at
    from reloads

),
{%- endif %}

logged as (

    select
        {{- cdc_select_columns(cdc_canonical_columns(), 'changes') }}
    from changes
    {%- if reset %}
    union all
    select
        {{- cdc_select_columns(cdc_canonical_columns(), 'truncates') }}
    from truncates
    {%- endif %}

)

select
    {{- cdc_select_columns(cdc_canonical_columns(), 'logged') }}
from logged
