{% macro history_increment_events(table_name, columns, since, bucket_length) %}
    {#- CTEs of history_from_changes for an increment, ending in `events` and `kept`:
        `events` are the images logged after `since` plus, for each key they touch, its
        current version standing in for all its earlier images; `kept` are the rows of the
        partitions this insert rewrites ('current' and the buckets from the oldest new
        image's on) that the new images do not change. -#}
new_images as (

    select images.*
    from images
    where images.loaded_at > timestamp {{ cdc_history.sql_string_literal(since) }}

),

existing as (

    select * from {{ this }}

),

affected_keys as (

    select distinct new_images.pk_string from new_images

),

current_versions as (

    select existing.*
    from existing
    where existing.valid_to_bucket = 'current'

),

events as (

    {# each touched key's current version stands in for all its earlier images #}
    {{ cdc_history.cdc_current_version_images(
        table_name, columns, 'current_versions', 'affected_keys'
    ) }}
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
