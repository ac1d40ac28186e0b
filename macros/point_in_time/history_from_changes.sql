{% macro history_from_changes(table_name) %}
    {#- The whole body of dim_<table>_history (SCD2, spec F.5): one row per version of a key,
        valid over [valid_from_order_key, valid_to_order_key) and, on the time line,
        [valid_from, valid_to); the current version has null valid_to*. A delete, a key
        move (U that changed the key) or a TRUNCATE opens a deleted version (is_deleted);
        repeated deletes collapse. Order is by order_key, never by a timestamp. Each version
        shows the key's merged state (cdc_state_images), so images that carry only some
        columns carry the others forward within a generation. -#}
    {%- set columns = cdc_table_columns(table_name) %}
with

images as (

    select *
    from {{ ref('fct_cdc_change_images') }}
    where source_table = '{{ table_name }}' and not is_before_image

),

keyed as (

    select * from images where images.pk_string is not null

),

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

    {# every key seen before a TRUNCATE gets a deleted version at the TRUNCATE #}
    select
        truncates.change_id,
        truncates.source_system,
        truncates.source_table,
        truncates.order_scope,
        truncates.order_key,
        truncates.effective_at,
        keys_seen.pk_string,
        truncates.image_oper,
        truncates.is_before_image,
        truncates.row_exists,
        truncates.image,
        truncates.image_complete,
        truncates.present_columns
    from truncates
    inner join keys_seen
        on keys_seen.first_order_key < truncates.order_key

),

events as (

    select * from keyed
    union all
    select * from truncated_keys

),

states as (

    {{ cdc_state_images(table_name, 'events') }}

),

events_ordered as (

    select
        states.*,
        lag(states.row_exists) over (
            partition by states.pk_string
            order by states.order_key, states.row_exists
        ) as previous_row_exists
    from states

),

versions as (

    {# a deleted version only where the key existed just before #}
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
        {% for column in columns -%}
        {{ cdc_text_value(
            "versions_bounded.merged_image['" ~ column.name ~ "']", column.type
        ) }}
            as {{ column.name }},
        {% endfor -%}
        not versions_bounded.row_exists as is_deleted,
        versions_bounded.effective_at as valid_from,
        versions_bounded.next_effective_at as valid_to,
        versions_bounded.order_key as valid_from_order_key,
        versions_bounded.next_order_key as valid_to_order_key,
        versions_bounded.next_order_key is null as is_current,
        versions_bounded.image_oper as change_op,
        versions_bounded.change_id,
        versions_bounded.order_scope
    from versions_bounded

)

select * from final
{%- endmacro %}
