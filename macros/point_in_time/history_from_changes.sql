{% macro history_from_changes(table_name) %}
    {#- The whole body of dim_<table>_history (SCD2, spec F.5): one row per version of a key,
        valid over [valid_from_order_key, valid_to_order_key) and, on the time line,
        [valid_from, valid_to); the current version has null valid_to*. A delete, a key
        move (U that changed the key) or a TRUNCATE opens a deleted version (is_deleted);
        repeated deletes collapse. Order is by order_key, never by a timestamp. Each version
        shows the key's merged state (cdc_state_images), so images that carry only some
        columns carry the others forward within a generation. Reads the table's typed
        images (int_<table>__change_images), never the text maps of the log.

        The steps, each a macro: history_plan decides between an increment and a rebuild;
        history_increment_events (only the touched keys, from their current version on) or
        history_rebuild_events (every image, a TRUNCATE fanned out to every key seen before
        it) give the events; cdc_state_images merges them into states; history_versions
        keeps the versions and bounds them. Partitioned by valid_to_bucket (the first
        var('history_bucket_length') characters of valid_to_order_key, 'current' for
        current versions): an increment rewrites only 'current' and the new buckets; a
        rebuild replaces every partition in one insert (history_reset); a run with no new
        image is skipped (cdc_nothing_new: no statement, no write). Disabled when the table is not in var cdc_tables. -#}
    {%- if table_name not in cdc_history.cdc_var('cdc_tables') -%}
        {{ config(enabled=false) }}
    {%- else -%}
    {%- set hook = "{{ cdc_history.history_reset() }}" -%}
    {{ config(
        materialized='incremental',
        incremental_strategy='insert_overwrite',
        partition_by=['valid_to_bucket'],
        on_schema_change='fail',
        pre_hook=["{{ cdc_history.cdc_write_started() }}", hook],
        post_hook=["{{ cdc_history.cdc_write_finished() }}"]
    ) }}
    {#- no image written since the last write read them: skipped unread -#}
    {%- set plan = {'since': 'inputs unchanged', 'new_images': 0} if cdc_history.cdc_inputs_unchanged()
        else cdc_history.history_plan(table_name) -%}
    {%- if plan.since and plan.new_images == 0 -%}
    {{ cdc_history.cdc_nothing_new() }}
    {%- else -%}
    {#- the plan, for this model's pre-hook (history_reset: the partition overwrite mode),
        which dbt renders later in the same invocation -#}
    {%- if execute -%}
        {%- do graph.setdefault('cdc_history_plans', {}).update(
            {model.unique_id: 'increment' if plan.since else 'rebuild'}) -%}
    {%- endif -%}
    {%- set columns = cdc_history.cdc_table_columns(table_name) -%}
    {%- set bucket_length = cdc_history.cdc_var('history_bucket_length', 8) | int %}
-- history_plan: {{ 'increment' if plan.since else 'rebuild' }}
with

images as (

    select *
    from {{ ref('int_' ~ table_name ~ '__change_images') }}
    where not is_before_image

),

{% if plan.since -%}
{{ cdc_history.history_increment_events(table_name, columns, plan.since, bucket_length) }}
{%- else -%}
{{ cdc_history.history_rebuild_events(columns, plan.has_truncates) }}
{%- endif %}

states as (

    {{ cdc_history.cdc_state_images(
        table_name, 'events', columns,
        has_truncates=not plan.since and plan.get('has_truncates', true)
    ) }}

),

{{ cdc_history.history_versions(
    'states', columns, bucket_length,
    cdc_history.cdc_history_options(table_name, columns).tracked
) }}

select * from final
{%- if plan.since %}
union all
select * from kept
{%- endif %}
distribute by valid_to_bucket
    {%- endif -%}
    {%- endif -%}
{%- endmacro %}
