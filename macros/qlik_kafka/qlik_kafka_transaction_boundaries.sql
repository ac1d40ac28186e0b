{% macro qlik_kafka_transaction_boundaries() %}
    {#- The body of int_qlik_kafka__transaction_boundaries: the rows
        cdc_transaction_boundaries would give over int_qlik_kafka__changes_canonical
        (each distinct order_key and effective_at of a logged change that ends its
        transaction or marks none, before the first change of a transaction not
        complete), read from the copies' judgement alone. The log is a view that
        joins every decoded message to its judgement, and the boundaries read
        through it joined them three times (10.1 to 10.4 s warm at 1 M changes,
        2.9 to 3.2 s this way, the same rows: BENCHMARKS.md section 65); the
        judgement carries the columns this needs, and the rules are the log's own
        macros (qlik_kafka_is_logged_copy, qlik_kafka_order_key,
        qlik_kafka_effective_at, qlik_kafka_transactions,
        qlik_kafka_reload_order_key), so the two agree.
        A table, rebuilt only when the judgement changes. -#}
{%- set order_scope = 'qlik:' ~ cdc_history.cdc_var('qlik_kafka_task') -%}
{%- set reset = cdc_history.cdc_var('qlik_kafka_reload') == 'reset' -%}
{{ config(
    enabled=cdc_history.cdc_source_system_enabled('qlik_kafka'),
    materialized='table'
) }}
with

first_copies as (

    {# the log's changes: the first copy of each change (its exact copies
       collapse onto it, conflicting ones are quarantined) #}
    select
        judged.operation,
        judged.change_seq,
        judged.change_seq_at,
        judged.is_reload,
        judged.refresh_batch_at,
        judged.transaction_id,
        judged.transaction_event_counter,
        judged.is_transaction_last_event
    from {{ ref('int_qlik_kafka__message_copies_judged') }} as judged
    where {{ cdc_history.qlik_kafka_is_logged_copy('judged') }}

),

transactions as (

    {{ cdc_history.qlik_kafka_transactions('first_copies') }}

),

first_incomplete as (

    {# the first CDC change flagged transaction_incomplete: in a transaction
       not complete, or in none (one row; NULL when there is none) #}
    select min(incomplete.order_key) as order_key
    from (
        select transactions.first_change_seq as order_key
        from transactions
        where not ({{ cdc_history.qlik_kafka_transaction_complete('transactions') }})
        union all
        select first_copies.change_seq as order_key
        from first_copies
        where
            first_copies.operation != 'REFRESH'
            and first_copies.transaction_id is null
    ) as incomplete

),

points as (

    {# the logged changes that end their transaction or mark none: REFRESH
       rows, last events, and (reset) each reload's TRUNCATE #}
    select
        {{ cdc_history.qlik_kafka_order_key('first_copies') }} as order_key,
        {{ cdc_history.qlik_kafka_effective_at('first_copies') }} as effective_at
    from first_copies
    where coalesce(first_copies.is_transaction_last_event, true)
    {%- if reset %}
    union all
    select
        {{ cdc_history.qlik_kafka_reload_order_key('first_copies.refresh_batch_at', 0) }}
            as order_key,
        first_copies.refresh_batch_at as effective_at
    from first_copies
    where first_copies.is_reload
    {%- endif %}

)

{#- first_incomplete is one row: broadcast, so the points are never gathered #}
select /*+ broadcast(first_incomplete) */ distinct
    {{ cdc_history.sql_string_literal(order_scope) }} as order_scope,
    points.order_key,
    points.effective_at
from points
cross join first_incomplete
where
    first_incomplete.order_key is null
    or points.order_key < first_incomplete.order_key
{%- endmacro %}
