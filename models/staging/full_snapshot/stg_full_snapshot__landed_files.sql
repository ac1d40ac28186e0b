{{ config(
    enabled=cdc_source_system_enabled('full_snapshot'),
    materialized='table',
    meta={'cdc_written_by_content': true}
) }}
{#- One row per landed full-snapshot file (files mode), with what keeps it
    out. -#}
{{ stage_landed_files('full_snapshot', full_snapshot_landed_tables()) }}
