{{
    config(
        enabled=cdc_source_system_enabled('qlik_ct'),
        materialized='incremental',
        incremental_strategy='append',
        on_schema_change='fail',
        pre_hook=["{{ cdc_write_started('loaded_at') }}"],
        post_hook=["{{ cdc_write_finished() }}"]
    )
}}
{#- One row per logged Qlik change (each valid I/U/D and TRUNCATE row of every
    table's change table, as int_qlik_ct__changes_canonical has them), with only
    what cdc_consistent_point reads: order scope, order key, time. Replicate's
    change tables mark no transaction ends and no incomplete transaction, so
    every change is a boundary (txn_last NULL, no flags). The full-load rows
    (order_key 000...0) are left out: a consistent point of '0' and one of
    000...0 select the same images. A narrow append-only table (watermark: the
    newest staged loaded_at it holds), so the transaction-consistent as-of
    functions read one table instead of every table's pairing view. #}
{%- set order_scope = 'qlik:' ~ var('qlik_ct_task') -%}
{%- set since = none -%}
{%- if execute and is_incremental() -%}
    {%- set since = run_query(
        'select cast(max(staged_at) as string) from ' ~ this
    ).columns[0].values()[0] -%}
{%- endif -%}
{%- if since -%}
    {%- set probes = [] -%}
    {%- for table_name in cdc_tables_of('qlik_ct') -%}
        {%- do probes.append(
            'select 1 from ' ~ ref('stg_qlik_ct__' ~ table_name)
            ~ ' where loaded_at > timestamp ' ~ sql_string_literal(since)) -%}
    {%- endfor -%}
    {%- set nothing_new = run_query(
        'select 1 from (' ~ probes | join(' union all ') ~ ') as staged limit 1'
    ).rows | length == 0 -%}
{%- endif -%}
{#- a full build takes every staged row (every loaded_at is after year 1) -#}
{%- set watermark = since or '0001-01-01 00:00:00' -%}
{%- if since and nothing_new -%}
{{ cdc_nothing_new() }}
{%- else %}

with

changes as (

    {% for table_name in cdc_tables_of('qlik_ct') -%}
    select
        staged.source_table,
        staged.order_key,
        staged.change_seq_at,
        staged.loaded_at
    from {{ ref('stg_qlik_ct__' ~ table_name) }} as staged
    where
        staged.is_valid
        and (staged.change_oper is null or staged.change_oper != 'B')
        and staged.loaded_at > timestamp {{ sql_string_literal(watermark) }}
    {% if not loop.last %}union all{% endif %}
    {% endfor %}

),

final as (

    select
        {{ sql_string_literal(order_scope) }} as order_scope,
        changes.order_key,
        changes.change_seq_at as effective_at,
        cast(null as boolean) as txn_last,
        cast(array() as array<string>) as flags,
        changes.source_table,
        changes.loaded_at as staged_at,
        current_timestamp() as loaded_at
    from changes

)

select * from final
{%- endif %}
