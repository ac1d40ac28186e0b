{% macro history_versions(states, columns, bucket_length) %}
    {#- CTEs of history_from_changes from the merged `states`, ending in `final`: a deleted
        version only where the key existed just before (repeated deletes collapse), each
        version bounded by the key's next one, in dim_<table>_history's columns. -#}
events_ordered as (

    select
        {{ states }}.*,
        lag({{ states }}.row_exists) over (
            partition by {{ states }}.pk_string
            order by {{ states }}.order_key, {{ states }}.row_exists
        ) as previous_row_exists
    from {{ states }}

),

versions as (

    select *
    from events_ordered
    where
        events_ordered.row_exists
        or coalesce(events_ordered.previous_row_exists, true)

),

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
