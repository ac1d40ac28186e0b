{% macro live_state(table_name) %}
    {#- The whole body of dim_<table>_live (Qlik Compose's live view): the table's live rows
        as dim_<table>_history holds them, overlaid with the images of
        int_<table>__change_images the history has not folded in yet, so a reader sees a
        change as soon as its image is written, before the history's next build.

        "Not folded in yet" is the history's own test for an increment (history_plan): a
        non-before image logged (loaded_at) after the history's newest change_loaded_at.
        Each key such an image touches starts from its current version, which stands in for
        all its earlier images (as history_increment_events does), the new images are merged
        onto it in order_key order (cdc_state_images, so an image lacking columns carries the
        rest forward and a key move carries the old key's state), and its latest image
        decides; a new TRUNCATE removes every row before it. Untouched keys keep their
        current version. With nothing pending, the view equals dim_<table>_current.

        Limits: only written images are seen, never records landed or staged but not yet
        imaged (the formats' staging and imaging are dbt models that call Python UDFs, which a
        stored view cannot run); a pending image older than its key's current version (a
        late change, for which the next build rebuilds the history) is ordered against that
        version, so where images lack columns a value only it carries shows after the next
        build; likewise, where states merge over lineages, a pending half of a key move whose
        other half is folded (the old key's K image landed after the new key's U, or the
        reverse) carries no state between the keys until the next build, which rebuilds the
        history (history_plan). Disabled when the table is not in var cdc_tables.

        Written so that the CTEs Spark evaluates more than once are few and small (it
        inlines every CTE read more than once): the history's watermark is a scalar
        subquery (computed once a query), the last TRUNCATE is looked for among the pending
        images only, and whether a row's latest image is applied travels with the image
        (`is_applied`) instead of being compared with the watermark again; 0.79 -> 0.56 s
        a read of the sample's employees with nothing pending (BENCHMARKS.md section 27). -#}
    {%- if table_name not in cdc_history.cdc_var('cdc_tables') -%}
        {{ config(enabled=false) }}
    {%- else -%}
    {{ config(materialized='view') }}
    {%- set columns = cdc_history.cdc_table_columns(table_name) %}
with

history as (

    select *
    from {{ ref('dim_' ~ table_name ~ '_history') }}

),

images as (

    select *
    from {{ ref('int_' ~ table_name ~ '__change_images') }}

),

current_versions as (

    select history.*
    from history
    where history.valid_to_bucket = 'current' and history.is_current

),

pending_images as (

    {# logged after the history's newest change (its watermark): not folded in yet #}
    select images.*
    from images
    where
        not images.is_before_image
        and (
            (select max(history.change_loaded_at) from history) is null
            or images.loaded_at > (select max(history.change_loaded_at) from history)
        )

),

touched_keys as (

    select distinct pending_images.pk_string
    from pending_images
    where pending_images.pk_string is not null

),

events as (

    {# each touched key's current version stands in for all its earlier images; the
       history holds it, so it is applied; a pending image is not #}
    select
        touched_versions.*,
        true as is_applied
    from (
        {{ cdc_history.cdc_current_version_images(
            table_name, columns, 'current_versions', 'touched_keys'
        ) }}
    ) as touched_versions
    union all
    select
        pending_images.*,
        false as is_applied
    from pending_images

),

{{ cdc_history.cdc_latest_states(table_name, 'events', columns, truncates='pending_images') }}

touched_rows as (

    select
        ranked.pk_string,
        {%- for column in columns %}
        ranked.{{ column.name }},
        {%- endfor %}
        ranked.image_oper as last_op,
        ranked.order_key as last_order_key,
        ranked.effective_at as last_changed_at,
        ranked.change_id as last_change_id,
        ranked.is_applied
    from ranked
    where ranked.recency = 1 and ranked.row_exists

),

untouched_rows as (

    select
        current_versions.pk_string,
        {%- for column in columns %}
        current_versions.{{ column.name }},
        {%- endfor %}
        current_versions.change_op as last_op,
        current_versions.valid_from_order_key as last_order_key,
        current_versions.valid_from as last_changed_at,
        current_versions.change_id as last_change_id,
        true as is_applied
    from current_versions
    cross join last_truncate
    left anti join touched_keys
        on current_versions.pk_string = touched_keys.pk_string
    where
        not current_versions.is_deleted
        and (
            last_truncate.order_key is null
            or current_versions.valid_from_order_key > last_truncate.order_key
        )

)

select * from untouched_rows
union all
select * from touched_rows
    {%- endif -%}
{% endmacro %}
