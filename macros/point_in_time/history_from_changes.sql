{% macro history_from_changes(table_name) %}
    {#- The whole body of dim_<table>_history (SCD2, spec F.5): one row per version of a key,
        valid over [valid_from_order_key, valid_to_order_key) and, on the time line,
        [valid_from, valid_to); the current version has null valid_to*. A delete, a key
        move (U that changed the key) or a TRUNCATE opens a deleted version (is_deleted);
        repeated deletes collapse. Order is by order_key, never by a timestamp. Each version
        shows the key's merged state (cdc_state_images), so images that carry only some
        columns carry the others forward within a generation.

        Incremental (history_increment): the table is partitioned by valid_to_bucket, the
        first var('history_bucket_length') characters of valid_to_order_key (for Qlik, the
        day a version was closed), 'current' for current versions. A run reads only the
        images logged since the newest change_loaded_at in the table. When each new image
        comes after its key's current version (the usual case), only the keys it touches
        are recomputed, from their current version on, and only the 'current' partition
        and the buckets from the oldest new image's on are rewritten (insert overwrite).
        A late image (at or before its key's current version), a new TRUNCATE, or a table
        with no watermark rebuilds the whole history and replaces every partition in one
        insert (history_reset switches that insert to static partition overwrite). -#}
    {%- set plan = history_increment(table_name) -%}
    {%- set hook = "{{ history_reset('" ~ table_name ~ "') }}" -%}
    {{ config(
        materialized='incremental',
        incremental_strategy='insert_overwrite',
        partition_by=['valid_to_bucket'],
        on_schema_change='fail',
        pre_hook=[hook],
        post_hook=['set spark.sql.sources.partitionOverwriteMode = DYNAMIC']
    ) }}
    {%- set columns = cdc_table_columns(table_name) %}
    {%- set bucket_length = var('history_bucket_length', 8) | int %}
with

images as (

    select *
    from {{ ref('fct_cdc_change_images') }}
    where source_table = '{{ table_name }}' and not is_before_image

),

{% if plan.since -%}
new_images as (

    select images.*
    from images
    where images.loaded_at > timestamp '{{ plan.since }}'

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
        '{{ cdc_table_config(table_name).source_system }}' as source_system,
        '{{ table_name }}' as source_table,
        current_versions.order_scope,
        current_versions.valid_from_order_key as order_key,
        current_versions.valid_from as effective_at,
        current_versions.pk_string,
        current_versions.change_op as image_oper,
        false as is_before_image,
        not current_versions.is_deleted as row_exists,
        map(
            {%- for column in columns %}
            '{{ column.name }}',
            {{ cdc_value_text('current_versions.' ~ column.name, column.type) }}
            {{- ',' if not loop.last }}
            {%- endfor %}
        ) as image,
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
{%- else %}
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
        truncates.present_columns,
        truncates.loaded_at
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
        versions_bounded.order_scope,
        versions_bounded.loaded_at as change_loaded_at,
        coalesce(
            substr(versions_bounded.next_order_key, 1, {{ bucket_length }}), 'current'
        ) as valid_to_bucket
    from versions_bounded

)

select * from final
{%- if plan.since %}
union all
select * from kept
{%- endif %}
distribute by valid_to_bucket
{%- endmacro %}
