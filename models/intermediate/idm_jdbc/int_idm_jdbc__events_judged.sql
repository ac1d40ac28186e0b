{{ config(enabled=cdc_source_system_enabled('idm_jdbc')) }}
{#- One row per valid IDM event with the precedence rules of seed 002 applied
    as flags, never by dropping rows (spec C.3): superseded_by (R1: a pending
    query-back event supersedes the pending non-query-back event for the same
    field or row; R2: a pending query-back row event supersedes pending query-
    back field events of the row), and queryback_target_deleted (R3: the row
    is deleted before a query-back event could read it). Query-back events are
    resolved against a landed snapshot of the source table when one is
    configured. #}
{%- set snapshot_tables = [] %}
{%- for table_name in cdc_tables_of('idm_jdbc') %}
{%- if cdc_table_config(table_name).get('snapshot_table') %}
{%- do snapshot_tables.append(table_name) %}
{%- endif %}
{%- endfor %}

with

events as (

    select *
    from {{ ref('stg_idm_jdbc__event_log') }}
    where is_valid

),

pending as (

    select * from events
    where is_pending

),

superseded_by_field_event as (

    {# R1, per field: a pending 7 or 8 on the field beats a pending 1, 2, 3 #}
    select
        pending_event.record_id,
        min(query_back_event.record_id) as superseding_record_id
    from pending as pending_event
    inner join pending as query_back_event
        on
            pending_event.table_name = query_back_event.table_name
            and pending_event.pk_string = query_back_event.pk_string
            and pending_event.column_name = query_back_event.column_name
            and query_back_event.event_type in (7, 8)
    where pending_event.event_type in (1, 2, 3)
    group by 1

),

superseded_by_row_event as (

    {# R1 per row (1, 2, 3) and R2 (7, 8): a pending 5 or 6 on the row wins #}
    select
        pending_event.record_id,
        min(query_back_event.record_id) as superseding_record_id
    from pending as pending_event
    inner join pending as query_back_event
        on
            pending_event.table_name = query_back_event.table_name
            and pending_event.pk_string = query_back_event.pk_string
            and query_back_event.event_type in (5, 6)
    where pending_event.event_type in (1, 2, 3, 7, 8)
    group by 1

),

snapshot_rows as (

    {% for table_name in snapshot_tables -%}
    {%- set snapshot_model = 'stg_idm_jdbc__'
        ~ cdc_table_config(table_name).snapshot_table %}
    select
        snapshot.table_name,
        snapshot.pk_string,
        snapshot.row_image,
        snapshot.is_valid
    from {{ ref(snapshot_model) }} as snapshot
    where snapshot.pk_string is not null
    {% if not loop.last %}union all{% endif %}
    {% endfor -%}
    {%- if not snapshot_tables -%}
    select
        cast(null as string) as table_name,
        cast(null as string) as pk_string,
        cast(null as map<string, string>) as row_image,  -- noqa: LT01
        cast(null as boolean) as is_valid
    where false
    {%- endif %}

),

snapshots as (

    {# a key the snapshot holds in an invalid row (e.g. twice) is there, but its
       values are unknown: the event is neither resolved nor target-deleted #}
    select
        snapshot_rows.table_name,
        snapshot_rows.pk_string,
        case
            when bool_and(snapshot_rows.is_valid)
                then first(snapshot_rows.row_image)
        end as row_image
    from snapshot_rows
    group by 1, 2

),

next_existence_events as (

    select
        events.*,
        first(
            case when events.event_type in (1, 4, 5) then events.event_type end,
            true
        ) over (
            partition by events.table_name, events.pk_string
            order by events.order_key
            rows between 1 following and unbounded following
        ) as next_existence_event_type
    from events

),

judged as (

    select
        next_existence_events.*,
        coalesce(
            superseded_by_field_event.superseding_record_id,
            superseded_by_row_event.superseding_record_id
        ) as superseded_by_record_id,
        array_contains(
            {{ sql_string_array(snapshot_tables) }},
            next_existence_events.table_name
        ) as has_snapshot,
        snapshots.row_image as snapshot_image,
        snapshots.pk_string is not null as is_in_snapshot
    from next_existence_events
    left join superseded_by_field_event
        on next_existence_events.record_id = superseded_by_field_event.record_id
    left join superseded_by_row_event
        on next_existence_events.record_id = superseded_by_row_event.record_id
    left join snapshots
        on
            next_existence_events.is_query_back
            and next_existence_events.table_name = snapshots.table_name
            and next_existence_events.pk_string = snapshots.pk_string

),

final as (

    select
        judged.*,
        judged.is_query_back
        and (
            coalesce(judged.next_existence_event_type = 4, false)
            or (judged.has_snapshot and not judged.is_in_snapshot)
        ) as is_queryback_target_deleted,
        judged.is_query_back
        and judged.snapshot_image is not null as is_resolved_from_snapshot
    from judged

)

select * from final
