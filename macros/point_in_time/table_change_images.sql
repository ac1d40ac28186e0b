{% macro table_change_images(table_name) %}
    {#- The whole body of int_<table>__change_images: one row per image of a change of
        `table_name`, typed (the seed 000 layout, see fct_cdc_change_images for the image
        kinds), built by the table's source format (<source_system>_change_images). The
        history, current state and point-in-time models read it. Incremental (append): the
        format images what was staged after the newest image (cdc_watermark).
        Disabled when the table is not in var cdc_tables. -#}
    {%- if table_name not in var('cdc_tables') -%}
        {{ config(enabled=false) }}
    {%- else -%}
        {{ config(
            materialized='incremental',
            incremental_strategy='append',
            on_schema_change='fail',
            pre_hook=["{{ cdc_write_started('loaded_at') }}"],
            post_hook=["{{ cdc_write_finished() }}"]
        ) }}
        {%- set system = cdc_table_config(table_name).source_system -%}
        {{ cdc_call_format_macro(system, 'change_images', table_name) }}
    {%- endif -%}
{% endmacro %}
