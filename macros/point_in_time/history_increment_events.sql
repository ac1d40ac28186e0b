{% macro history_increment_events(table_name, columns, since, bucket_length) %}
    {#- CTEs of history_from_changes for an increment, ending in `events` and `kept`:
        `events` are the images logged after `since` plus, for each key they touch, its
        current version standing in for all its earlier images; `kept` are the rows of the
        partitions this insert rewrites ('current' and the buckets from the oldest new
        image's on) that the new images do not change. -#}
new_images as (

    select images.*
    from images
    where images.loaded_at > timestamp {{ sql_string_literal(since) }}

),

existing as (

    select * from {{ this }}

),

affected_keys as (

    select distinct new_images.pk_string from new_images

),

events as (

    {# each touched key's current version stands in for all its earlier images #}
    select
        current_versions.change_id,
        {{ sql_string_literal(cdc_table_config(table_name).source_system) }}
            as source_system,
        {{ sql_string_literal(table_name) }} as source_table,
        current_versions.order_scope,
        current_versions.valid_from_order_key as order_key,
        current_versions.valid_from as effective_at,
        current_versions.pk_string,
        current_versions.change_op as image_oper,
        false as is_before_image,
        not current_versions.is_deleted as row_exists,
        {%- for column in columns %}
        current_versions.{{ column.name }},
        {%- endfor %}
        true as image_complete,
        {{ sql_string_array(columns | map(attribute='name') | list) }} as present_columns,
        current_versions.change_loaded_at as loaded_at
    from existing as current_versions
    left semi join affected_keys
        on current_versions.pk_string = affected_keys.pk_string
    where current_versions.valid_to_bucket = 'current'
    union all
    select * from new_images

),

kept as (

    {# rows of the rewritten partitions that the new images do not change #}
    select existing.*
    from existing
    left anti join affected_keys
        on
            existing.pk_string = affected_keys.pk_string
            and existing.valid_to_bucket = 'current'
    where
        existing.valid_to_bucket = 'current'
        or existing.valid_to_bucket >= (
            select substr(min(new_images.order_key), 1, {{ bucket_length }})
            from new_images
        )

),
{%- endmacro %}
