{% macro history_rebuild_events(columns, has_truncates=true) %}
    {#- CTEs of history_from_changes for a rebuild, ending in `events`: every keyed image of
        the `images` CTE, plus, for every TRUNCATE, a T image for each key seen before it
        (so the TRUNCATE ends every key's generation and opens a deleted version, which
        cdc_state_images fills with the state it ends: has_truncates). Without
        has_truncates (history_plan found none) the fan-out, an aggregate over every key,
        is left out. -#}
keyed as (

    select * from images where images.pk_string is not null

),
{%- if not has_truncates %}

events as (

    select * from keyed

),
{%- else %}

truncates as (

    select * from images where images.image_oper = 'T'

),

keys_seen as (

    select
        keyed.pk_string,
        min(keyed.order_key) as first_order_key
    from keyed
    group by keyed.pk_string

),

truncated_keys as (

    select
        truncates.change_id,
        truncates.source_system,
        truncates.source_table,
        truncates.order_scope,
        truncates.order_key,
        truncates.effective_at,
        keys_seen.pk_string,
        truncates.* except (
            change_id, source_system, source_table, order_scope, order_key,
            effective_at, pk_string
        )
    from truncates
    inner join keys_seen
        on keys_seen.first_order_key < truncates.order_key

),

events as (

    select * from keyed
    union all
    select * from truncated_keys

),
{%- endif %}
{%- endmacro %}
