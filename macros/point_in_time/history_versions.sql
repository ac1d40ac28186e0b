{% macro history_versions(states, columns, bucket_length, tracked=none) %}
    {#- CTEs of history_from_changes from the merged `states`, ending in `final`: a deleted
        version only where the key existed just before (repeated deletes collapse), each
        version bounded by the key's next one, in dim_<table>_history's columns.

        With `tracked` (cdc_history_options: track_history_columns, ...), a state of a live
        key that leaves every tracked column as the key's previous state had it (compared
        NULL-safe) opens no version: it overwrites the open version in place. The version
        keeps the start, change_id and change_op of the change that opened it and shows the
        values of its latest state; change_loaded_at is the newest of its changes. -#}
events_ordered as (

    select
        {{ states }}.*,
        lag({{ states }}.row_exists) over key_order as previous_row_exists
        {%- if tracked is not none %},
        not {{ states }}.row_exists
        or not coalesce(lag({{ states }}.row_exists) over key_order, false)
        {%- for name in tracked %}
        or not ({{ states }}.{{ name }} <=> lag({{ states }}.{{ name }}) over key_order)
        {%- endfor %}
            as opens_version
        {%- endif %}
    from {{ states }}
    window key_order as (
        partition by {{ states }}.pk_string
        order by {{ states }}.order_key, {{ states }}.row_exists
    )

),
{%- if tracked is none %}

versions as (

    select *
    from events_ordered
    where
        events_ordered.row_exists
        or coalesce(events_ordered.previous_row_exists, true)

),
{%- else %}

states_kept as (

    select
        events_ordered.*,
        count_if(events_ordered.opens_version) over (
            partition by events_ordered.pk_string
            order by events_ordered.order_key, events_ordered.row_exists
            rows between unbounded preceding and current row
        ) as version_number
    from events_ordered
    where
        events_ordered.row_exists
        or coalesce(events_ordered.previous_row_exists, true)

),

version_latest as (

    {# a version's values are its latest state's; its changes' newest load time #}
    select
        states_kept.pk_string,
        states_kept.version_number,
        max_by(
            named_struct(
                {%- for column in columns %}
                {{ cdc_history.sql_string_literal(column.name) }}, states_kept.{{ column.name }}
                {{- ',' if not loop.last }}
                {%- endfor %}
            ),
            states_kept.order_key
        ) as latest,
        max(states_kept.loaded_at) as loaded_at
    from states_kept
    group by states_kept.pk_string, states_kept.version_number

),

versions as (

    select
        states_kept.* except (
            {{ columns | map(attribute='name') | join(', ') }}, loaded_at
        ),
        {%- for column in columns %}
        version_latest.latest.{{ column.name }},
        {%- endfor %}
        version_latest.loaded_at
    from states_kept
    inner join version_latest
        on
            states_kept.pk_string = version_latest.pk_string
            and states_kept.version_number = version_latest.version_number
    where states_kept.opens_version

),
{%- endif %}

versions_bounded as (

    select
        versions.*,
        lead(versions.order_key) over key_order as next_order_key,
        lead(versions.effective_at) over key_order as next_effective_at
    from versions
    window key_order as (
        partition by versions.pk_string
        order by versions.order_key, versions.row_exists
    )

),

final as (

    select
        versions_bounded.pk_string,
        {%- for column in columns %}
        versions_bounded.{{ column.name }},
        {%- endfor %}
        not versions_bounded.row_exists as is_deleted,
        versions_bounded.effective_at as valid_from,
        versions_bounded.next_effective_at as valid_to,
        versions_bounded.order_key as valid_from_order_key,
        versions_bounded.next_order_key as valid_to_order_key,
        versions_bounded.next_order_key is null as is_current,
        versions_bounded.image_oper as change_op,
        versions_bounded.change_id,
        versions_bounded.order_scope,
        versions_bounded.loaded_at as change_loaded_at,
        coalesce(
            substr(versions_bounded.next_order_key, 1, {{ bucket_length }}), 'current'
        ) as valid_to_bucket
    from versions_bounded

)
{%- endmacro %}
