{{
    config(
        enabled=cdc_source_system_enabled('idm_jdbc'),
        materialized='incremental',
        incremental_strategy='append',
        on_schema_change='fail',
        pre_hook=["{{ cdc_write_started('loaded_at') }}"],
        post_hook=["{{ cdc_write_finished() }}"]
    )
}}
{#- One row per canonical change (spec F.1) from the IDM event log: each
    rolled-up event group mapped onto the change log. Values are text; images
    are incomplete (per field), and query-back events carry values only when
    resolved from a snapshot, else needs_lookup. Append-only (incremental by
    change_id, this format's own watermark): the event log changes in place
    (the publisher rewrites status and may delete processed rows), so a change
    is kept as first loaded, with the flags seen then. #}
{%- set order_scope = 'idm:' ~ cdc_var('idm_jdbc_driver') %}

with

imaged as (

    select * from {{ ref('int_idm_jdbc__events_rolled_up') }}

),

canonical as (

    select
        ---------- identity (spec F.1)
        sha2(
            concat_ws(
                '|', 'idm_jdbc', {{ sql_string_literal(order_scope) }},
                imaged.order_key, '0'
            ),
            256
        ) as change_id,
        'idm_jdbc' as source_system,
        {{ sql_string_literal(cdc_var('idm_jdbc_driver')) }} as source_instance,
        case imaged.table_name
            {%- for table_name in cdc_tables_of('idm_jdbc') %}
            {%- set table = cdc_table_config(table_name) %}
            when {{ sql_string_literal(table_name) }}
                then {{ sql_string_literal(table.get('source_schema', '')) }}
            {%- endfor %}
        end as source_schema,
        imaged.table_name as source_table,
        lower(imaged.table_name) as source_table_norm,

        ---------- operation (spec F.4: 1, 5 -> I; 4 -> D; 2, 3, 6, 7, 8 -> U)
        case
            when imaged.event_type in (1, 5) then 'I'
            when imaged.event_type = 4 then 'D'
            else 'U'
        end as op,
        cast(null as string) as control_op,
        false as is_snapshot,
        imaged.event_type = 2 as has_before_image,

        ---------- key (parsed table_key)
        imaged.pk,
        imaged.pk_string,
        cast(null as map<string, string>) as pk_before,  -- noqa: LT01
        false as pk_changed,

        ---------- ordering (spec F.3)
        {{ sql_string_literal(order_scope) }} as order_scope,
        imaged.order_key,
        cast(null as string) as txn_id,
        cast(null as bigint) as txn_seq,
        cast(null as boolean) as txn_last,
        cast(null as timestamp) as commit_ts,
        imaged.event_time as op_ts,
        imaged.event_time as effective_at,

        ---------- images
        case
            when imaged.event_type in (1, 2, 3, 7, 8)
                then transform(
                    imaged.field_columns_ordered, entry -> entry.column_name
                )
        end as changed_columns,
        case
            when imaged.event_type = 4 then map_keys(imaged.pk)
            else array_union(
                map_keys(imaged.pk),
                coalesce(map_keys(imaged.values_image), array())
            )
        end as present_columns,
        case
            when
                imaged.event_type = 2
                then map_concat(imaged.pk, imaged.old_values)
            when imaged.event_type = 4 then imaged.pk
        end as before_image,
        case
            when imaged.event_type != 4
                then coalesce(imaged.values_image, imaged.pk)
        end as after_image,
        imaged.event_type in (5, 6) and imaged.is_resolved_from_snapshot
            as image_complete,
        imaged.event_type in (5, 6, 7, 8)
        and not imaged.is_resolved_from_snapshot
            as needs_lookup,
        imaged.flags,

        ---------- lineage
        {{ sql_string_literal(
            cdc_var('idm_jdbc_schema') ~ '.' ~ cdc_var('idm_jdbc_event_log')
        ) }} as raw_source,
        array_join(imaged.record_ids, ',') as raw_key,
        current_timestamp() as loaded_at

    from imaged

),

new_changes as (

    {{ cdc_changes_not_logged('canonical') }}

)

select
    {{- cdc_select_columns(cdc_canonical_columns(), 'new_changes') }}
from new_changes
