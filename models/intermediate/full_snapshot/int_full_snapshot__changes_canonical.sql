{#- One row per canonical change (spec F.1) of the full_snapshot tables: the
    inserts, updates and deletes their consecutive snapshots imply
    (full_snapshot_changes), each at its snapshot's time (order_key: the time as
    20 digits, yyyyMMddHHmmss and microseconds). Images are complete: every
    column is in every snapshot. The first snapshot of a table is its baseline
    (is_snapshot). Incremental (append): a run compares only the snapshots
    staged since its last write with the newest one before them; a late
    snapshot (staged after a newer one, int_full_snapshot__snapshots.is_late)
    makes it compare every snapshot again (cdc_append_plan), since the changes
    of the snapshot after it are then others. #}
{{
    config(
        enabled=cdc_source_system_enabled('full_snapshot'),
        materialized='incremental',
        incremental_strategy='append',
        on_schema_change='fail',
        pre_hook=[
            "{{ cdc_write_started('loaded_at') }}",
            "{{ cdc_append_reset() }}"
        ],
        post_hook=["{{ cdc_write_finished() }}"]
    )
}}
{%- set snapshots = ref('int_full_snapshot__snapshots') %}
{%- set plan = cdc_append_plan(
    snapshots, 'true', 'loaded_at', snapshots, 'is_late') %}
{%- if plan.since and plan.newer == 0 %}
{{ cdc_nothing_new() }}
{%- else %}
{%- set instance = cdc_var('full_snapshot_instance') %}
{%- set order_scope = 'snapshot:' ~ instance %}

with

derived as (
    {%- for table_name in cdc_tables_of('full_snapshot') %}

    select
        {{ sql_string_literal(table_name) }} as source_table,
        table_changes.*,
        coalesce(table_changes.after_values, table_changes.before_values)
            as row_image,
        {{ cdc_pk_map(cdc_key_columns(table_name),
            'coalesce(table_changes.after_values, table_changes.before_values)') }} as pk
    from ({{ full_snapshot_changes(table_name, plan.since) }}) as table_changes
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}

),

canonical as (

    select
        ---------- identity (spec F.1)
        sha2(
            concat_ws(
                '|', 'full_snapshot', {{ sql_string_literal(order_scope) }},
                derived.source_table, derived.order_key, derived.pk_string
            ),
            256
        ) as change_id,
        'full_snapshot' as source_system,
        {{ sql_string_literal(instance) }} as source_instance,
        case derived.source_table
            {%- for table_name in cdc_tables_of('full_snapshot') %}
            when {{ sql_string_literal(table_name) }}
                then {{ sql_string_literal(
                    cdc_table_config(table_name).get('source_schema', '')) }}
            {%- endfor %}
        end as source_schema,
        derived.source_table,
        lower(derived.source_table) as source_table_norm,

        ---------- operation
        derived.op,
        cast(null as string) as control_op,
        derived.is_first_snapshot as is_snapshot,
        derived.op in ('U', 'D') as has_before_image,

        ---------- key
        derived.pk,
        derived.pk_string,
        cast(null as map<string, string>) as pk_before,  -- noqa: LT01
        false as pk_changed,

        ---------- ordering (spec F.3): the snapshot's time
        {{ sql_string_literal(order_scope) }} as order_scope,
        derived.order_key,
        derived.snapshot_text as txn_id,
        cast(null as bigint) as txn_seq,
        cast(null as boolean) as txn_last,
        derived.snapshot_at as commit_ts,
        derived.snapshot_at as op_ts,
        derived.snapshot_at as effective_at,

        ---------- images
        case derived.op
            when 'I' then map_keys(derived.after_values)
            when 'U'
                then filter(
                    map_keys(derived.after_values),
                    column_name -> not (
                        derived.after_values[column_name]
                        <=> derived.before_values[column_name]
                    )
                )
        end as changed_columns,
        map_keys(derived.row_image) as present_columns,
        derived.before_values as before_image,
        derived.after_values as after_image,
        true as image_complete,
        false as needs_lookup,
        cast(array() as array<string>) as flags,
        derived.landed_file as raw_source,
        concat(derived.snapshot_text, ':', derived.pk_string) as raw_key,
        derived.loaded_at
    from derived

)

select {{ cdc_select_columns(cdc_canonical_columns(), 'canonical') }}
from canonical
{%- endif %}
