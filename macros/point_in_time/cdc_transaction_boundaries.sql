{% macro cdc_transaction_boundaries(source_system) %}
    {#- The whole body of int_<source_system>__transaction_boundaries: one row per
        distinct (order_scope, order_key, effective_at) of the format's canonical log at
        which every table of the order scope stands transaction-consistent. A change is a
        boundary when it ends its transaction (txn_last) or its format marks no
        transaction ends (txn_last NULL: snapshot rows, formats without end markers), and
        it counts only before the scope's first change of an incomplete transaction (flag
        transaction_incomplete: its last event, or one before it, has not landed). A
        format registered with transactions_marked false (cdc_source_system_config: its
        log marks no ends and flags nothing incomplete) has every logged change a
        boundary, so its body reads three columns of the log and neither the flags nor a
        second pass for the first incomplete change.
        cdc_consistent_point reads it. For a format that marks transactions it is a
        table, rebuilt only when the log changes (the table materialization's "unchanged"
        shortcut), so a <table>_as_of_consistent function neither analyses nor computes
        the format's log (for Qlik Kafka a chain of views over every message) each time
        it is created or called. For one that marks none it is a view: its rows are the
        log's own points, so a table would copy three columns of the whole log in every
        run that logs anything (6 s of a 1 % Qlik increment at 1 M changes, and growing
        with the log, BENCHMARKS.md section 58); such a format's canonical log is a table
        or a view over one. Qlik Kafka's model has a body of its own with the same rows,
        read from its copies' judgement (qlik_kafka_transaction_boundaries). -#}
{%- set unmarked = cdc_history.cdc_source_system_enabled(source_system)
    and not cdc_history.cdc_source_system_config(source_system).get('transactions_marked', true) -%}
{{ config(
    enabled=cdc_history.cdc_source_system_enabled(source_system),
    materialized='view' if unmarked else 'table'
) }}
{%- if unmarked %}
select distinct
    canonical.order_scope,
    canonical.order_key,
    canonical.effective_at
from {{ ref('int_' ~ source_system ~ '__changes_canonical') }} as canonical
{%- else %}
with

log as (

    select
        canonical.order_scope,
        canonical.order_key,
        canonical.effective_at,
        canonical.txn_last,
        array_contains(canonical.flags, 'transaction_incomplete')
            as is_transaction_incomplete
    from {{ ref('int_' ~ source_system ~ '__changes_canonical') }} as canonical

),

first_incomplete as (

    select
        log.order_scope,
        min(log.order_key) as order_key
    from log
    where log.is_transaction_incomplete
    group by log.order_scope

)

{#- first_incomplete is one row per order scope: broadcast, so the log is never
    shuffled by its order scope (a whole trail or table in one task) #}
select /*+ broadcast(first_incomplete) */ distinct
    log.order_scope,
    log.order_key,
    log.effective_at
from log
left join first_incomplete
    on log.order_scope = first_incomplete.order_scope
where
    coalesce(log.txn_last, true)
    and (
        first_incomplete.order_key is null
        or log.order_key < first_incomplete.order_key
    )
{%- endif %}
{%- endmacro %}
