{% macro table_change_images(table_name) %}
    {#- The whole body of int_<table>__change_images: one row per image of a change of
        `table_name`, typed (the seed 000 layout, see fct_cdc_change_images for the image
        kinds), built by the table's source format (<source_system>_change_images). The
        history, current state and point-in-time models read it. Incremental (append): the
        format images what was staged after the newest image (cdc_watermark); a format
        registered images_rebuildable plans with cdc_append_plan and may image it all
        again (the cdc_append_reset pre-hook empties the table first), as may a Qlik table
        with duplicate_resolution latest_load. Where states are merged from the images, each
        write records which kinds of image the table holds (cdc_record_image_kinds:
        images lacking columns, key moves), so the merge skips the steps it needs none of
        (cdc_state_images).
        Disabled when the table is not in var cdc_tables. -#}
    {%- if table_name not in cdc_history.cdc_var('cdc_tables') -%}
        {{ config(enabled=false) }}
    {%- else -%}
        {%- set table = cdc_history.cdc_table_config(table_name) -%}
        {%- set system = table.source_system -%}
        {%- set pre_hooks = ["{{ cdc_history.cdc_write_started('loaded_at') }}"] -%}
        {%- set post_hooks = ["{{ cdc_history.cdc_write_finished() }}"] -%}
        {#- the kinds of image matter only where states are merged: images not complete
            by configuration, or NULL updates ignored (cdc_states_are_images) -#}
        {%- if not cdc_history.cdc_images_complete(table_name) or table.get('ignore_null_updates') -%}
            {%- do post_hooks.insert(0, "{{ cdc_history.cdc_record_image_kinds() }}") -%}
        {%- endif -%}
        {#- a table whose later loads can replace staged changes (cdc_table_replaces_staged:
            a Qlik table keeping the latest load) rebuilds its images when a row supersedes
            a staged one (qlik_ct_change_images) -#}
        {%- if cdc_history.cdc_source_system_config(system).get('images_rebuildable', false)
              or cdc_history.cdc_table_replaces_staged(table_name) -%}
            {%- do pre_hooks.append("{{ cdc_history.cdc_append_reset() }}") -%}
        {%- endif -%}
        {#- inputs whose writes do not change what the images read of them: the registry's
            images_ignore_inputs (a Qlik table's images read its full loads from the Qlik
            log, written for every table; its rows there change with the table's staging
            and full-load folder alone, which the images read too: cdc_inputs_parents) -#}
        {%- set ignored = cdc_history.cdc_source_system_config(system).get('images_ignore_inputs', []) -%}
        {{ config(
            materialized='incremental',
            incremental_strategy='append',
            on_schema_change='fail',
            pre_hook=pre_hooks,
            post_hook=post_hooks,
            meta={'cdc_inputs_ignore': ignored | list} if ignored else {}
        ) }}
        {{ cdc_history.cdc_call_format_macro(system, 'change_images', table_name) }}
    {%- endif -%}
{% endmacro %}
