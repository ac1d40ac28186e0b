{{ config(enabled=cdc_source_system_enabled('idm_jdbc')) }}
{#- One row per group of IDM events that make one change: per-field events
    written by one trigger firing (same table, key, event type, event_time and
    perpetrator, adjacent in the key's order) roll up at the lowest record_id
    (spec C.7); row events stay alone. Carries the ordered field values, old
    values and any snapshot image: the shared input of the canonical mapping
    and of the XDS documents. #}

with

events as (

    select * from {{ ref('int_idm_jdbc__events_judged') }}

),

islands as (

    select
        events.*,
        row_number()
            over (
                partition by events.table_name, events.pk_string
                order by events.order_key
            )
        - row_number() over (
            partition by
                events.table_name,
                events.pk_string,
                events.event_type,
                events.event_time,
                events.perpetrator,
                case when events.is_field_event then 0 else events.record_id end
            order by events.order_key
        ) as island

    from events

),

event_values as (

    select
        islands.*,
        case
            when islands.event_type in (1, 2, 3) then islands.new_value
            when
                islands.event_type in (7, 8)
                and islands.is_resolved_from_snapshot
                then islands.snapshot_image[islands.column_name]
        end as field_value,
        islands.event_type in (1, 2, 3)
        or (islands.event_type in (7, 8) and islands.is_resolved_from_snapshot)
            as carries_value,
        concat(islands.flags, filter(
            array(
                case
                    when islands.superseded_by_record_id is not null
                        then concat(
                            'superseded_by:', islands.superseded_by_record_id
                        )
                end,
                case when islands.is_loopback then 'is_loopback' end,
                case
                    when islands.is_queryback_target_deleted
                        then 'queryback_target_deleted'
                end,
                case
                    when islands.is_resolved_from_snapshot
                        then 'resolved_from_snapshot'
                end,
                case when islands.is_pending then 'pending' end
            ),
            flag -> flag is not null
        )) as event_flags
    from islands

),

rolled_up as (

    select
        event_values.table_name,
        event_values.pk_string,
        event_values.event_type,
        event_values.event_time,
        event_values.perpetrator,
        event_values.island,
        min(event_values.order_key) as order_key,
        array_sort(collect_list(event_values.record_id)) as record_ids,
        first(event_values.pk) as pk,
        min_by(event_values.table_key, event_values.order_key) as table_key,
        bool_or(event_values.is_loopback) as is_loopback,
        bool_or(event_values.superseded_by_record_id is not null)
            as is_superseded,
        bool_or(event_values.is_queryback_target_deleted)
            as is_queryback_target_deleted,
        first(event_values.snapshot_image) as snapshot_image,
        bool_or(event_values.is_resolved_from_snapshot)
            as is_resolved_from_snapshot,
        array_sort(
            collect_list(
                struct(event_values.order_key, event_values.column_name)
            )
        ) as field_columns_ordered,
        array_sort(
            collect_list(
                case
                    when event_values.carries_value
                        then struct(
                            event_values.order_key,
                            event_values.column_name,
                            event_values.field_value
                        )
                end
            )
        ) as values_ordered,
        array_sort(
            collect_list(
                case
                    when event_values.event_type = 2
                        then struct(
                            event_values.order_key,
                            event_values.column_name,
                            event_values.old_value
                        )
                end
            )
        ) as old_values_ordered,
        array_distinct(flatten(collect_list(event_values.event_flags))) as flags
    from event_values
    group by 1, 2, 3, 4, 5, 6

),

imaged as (

    select
        rolled_up.*,
        case
            when rolled_up.event_type in (5, 6) then rolled_up.snapshot_image
            when rolled_up.event_type != 4
                then map_concat(
                    rolled_up.pk,
                    map_from_entries(
                        transform(
                            rolled_up.values_ordered,
                            entry
                            -> struct(entry.column_name, entry.field_value)
                        )
                    )
                )
        end as values_image,
        {# the first old value of a column is its value before the change #}
        map_from_entries(
            reverse(
                transform(
                    rolled_up.old_values_ordered,
                    entry -> struct(entry.column_name, entry.old_value)
                )
            )
        ) as old_values
    from rolled_up

)

select * from imaged
