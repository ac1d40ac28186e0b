{% macro cdc_change_images_of_log(table_name, changes, invalidated_by=none, invalidating='true') %}
    {#- The body of int_<table>__change_images for a format that maps onto the canonical
        log first (its int_<source_system>__changes_canonical, given as `changes`): the
        table's canonical changes unfolded into typed images, as fct_cdc_change_images does
        with text maps, both by cdc_log_image_kinds (I, U: the after-image; D: the deleted
        row; K: the old key of a U that changed the key; T: a TRUNCATE; B: the before-image
        of a U). present_columns says which columns an image carries (cdc_state_images merges the
        rest). Incremental: only the changes logged after the newest image
        (cdc_watermark); a run with none is skipped (cdc_nothing_new). A format whose
        changes logged earlier can be derived anew (full snapshots: a late one changes the
        next one's changes) passes `invalidated_by` and `invalidating` (as cdc_append_plan
        takes them, and registers images_rebuildable): the images are then planned by
        cdc_append_plan and built again whole when such rows were loaded since. -#}
    {%- set columns = cdc_history.cdc_table_columns(table_name) -%}
    {%- if cdc_history.cdc_inputs_unchanged() -%}
        {{ return(cdc_history.cdc_nothing_new()) }}
    {%- endif -%}
    {%- set condition = 'upstream.source_table = ' ~ cdc_history.sql_string_literal(table_name) -%}
    {%- set watermark = cdc_history.cdc_watermark(changes, condition) if invalidated_by is none
        else cdc_history.cdc_append_plan(changes, condition, 'loaded_at', invalidated_by, invalidating) -%}
    {%- set since = watermark.since -%}
    {%- if since and watermark.newer == 0 -%}
        {{ return(cdc_history.cdc_nothing_new()) }}
    {%- endif %}
with

changes as (

    select *
    from {{ changes }}
    where
        source_table = {{ cdc_history.sql_string_literal(table_name) }}
        {%- if since %}
        and loaded_at > timestamp {{ cdc_history.sql_string_literal(since) }}
        {%- endif %}

),

unfolded as (

    select
        changes.change_id,
        changes.source_system,
        changes.source_table,
        changes.order_scope,
        changes.order_key,
        changes.effective_at,
        image.*,
        changes.loaded_at
    from changes
    {{ cdc_history.cdc_log_images_lateral_view('changes', columns) }}

)

select
    unfolded.change_id,
    unfolded.source_system,
    unfolded.source_table,
    unfolded.order_scope,
    unfolded.order_key,
    unfolded.effective_at,
    unfolded.pk_string,
    unfolded.image_oper,
    unfolded.is_before_image,
    unfolded.row_exists,
    {%- for column in columns %}
    unfolded.{{ column.name }},
    {%- endfor %}
    unfolded.image_complete,
    unfolded.present_columns,
    unfolded.loaded_at
from unfolded
{%- endmacro %}
