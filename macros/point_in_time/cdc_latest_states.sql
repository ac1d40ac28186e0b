{% macro cdc_latest_states(table_name, events, columns, truncates=none) %}
    {#- CTEs ending in `ranked`: the images in `events` (the layout of
        int_<table>__change_images, before-images excluded) after the last TRUNCATE image
        among them (`last_truncate`, its order_key or NULL; a TRUNCATE image has no key,
        unlike a history version a TRUNCATE deleted), merged into each key's states
        (`states`, cdc_state_images: columns an image lacks carried forward, key moves
        followed), each numbered by recency per key (`recency` 1 is the key's latest
        state; at one order_key a removal counts as later than an existing row). The one
        "latest state of every key" step of point_in_time_query and live_state.

        `truncates` (default: `events`) names a smaller relation holding every TRUNCATE
        image of `events`, to find the last one in (live_state's pending images: reading
        `events` twice would evaluate its whole plan twice, as Spark inlines a CTE read
        more than once). -#}
{%- set truncates = truncates or events %}
last_truncate as (

    select max({{ truncates }}.order_key) as order_key
    from {{ truncates }}
    where {{ truncates }}.image_oper = 'T' and {{ truncates }}.pk_string is null

),

since_truncate as (

    select {{ events }}.*
    from {{ events }}
    cross join last_truncate
    where
        {{ events }}.pk_string is not null
        and (
            last_truncate.order_key is null
            or {{ events }}.order_key > last_truncate.order_key
        )

),

states as (

    {{ cdc_history.cdc_state_images(table_name, 'since_truncate', columns) }}

),

ranked as (

    select
        states.*,
        row_number() over (
            partition by states.pk_string
            order by states.order_key desc, states.row_exists asc
        ) as recency
    from states

),
{%- endmacro %}
