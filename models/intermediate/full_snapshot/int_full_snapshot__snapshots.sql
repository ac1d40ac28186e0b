{{ config(
    enabled=cdc_source_system_enabled('full_snapshot'),
    materialized='table'
) }}
{#- One row per full snapshot of each table: its time, when it was staged, its
    rows, and whether it is late (staged after a newer snapshot of its table
    had been: placing it in order changes the changes derived for the snapshot
    after it, so the change log's increment and the tables' images are built
    again whole, cdc_append_plan). A snapshot's rows are staged in one run (rows
    landed for it later are kept out). A table, rebuilt when staging wrote
    (the table materialization's "unchanged" shortcut): the log's plan, its
    increment and each table's images read it several times a run, and it is
    a few rows where the staged snapshots are millions. #}

with

staged as (
    {%- for table_name in cdc_tables_of('full_snapshot') %}

    select
        staged.source_table,
        staged.order_key,
        staged.snapshot_text,
        staged.snapshot_at,
        staged.row_values,
        staged.loaded_at
    from {{ ref('stg_full_snapshot__' ~ table_name) }} as staged
    where staged.is_in_snapshot
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}

),

snapshots as (

    select
        staged.source_table,
        staged.order_key,
        min(staged.snapshot_text) as snapshot_text,
        min(staged.snapshot_at) as snapshot_at,
        min(staged.loaded_at) as loaded_at,
        count(staged.row_values) as staged_rows
    from staged
    group by 1, 2

),

lateness as (

    select
        snapshots.source_table,
        snapshots.order_key,
        count(newer.order_key) > 0 as is_late
    from snapshots
    left join snapshots as newer
        on
            snapshots.source_table = newer.source_table
            and snapshots.order_key < newer.order_key
            and snapshots.loaded_at > newer.loaded_at
    group by 1, 2

),

final as (

    select
        snapshots.*,
        lateness.is_late
    from snapshots
    inner join lateness
        on
            snapshots.source_table = lateness.source_table
            and snapshots.order_key = lateness.order_key

)

select * from final
