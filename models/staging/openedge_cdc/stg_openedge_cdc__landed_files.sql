{{ config(
    enabled=cdc_source_system_enabled('openedge_cdc'),
    materialized='table',
    meta={'cdc_written_by_content': true}
) }}
{#- One row per landed OpenEdge file (files mode), with what keeps it out. -#}
{{ stage_landed_files('openedge_cdc', openedge_cdc_landed_tables()) }}
