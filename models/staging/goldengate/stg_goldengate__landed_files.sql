{{ config(
    enabled=cdc_source_system_enabled('goldengate'),
    materialized='table',
    meta={'cdc_written_by_content': true}
) }}
{#- One row per landed GoldenGate file (files mode), with what keeps it out. -#}
{{ stage_landed_files('goldengate', goldengate_landed_tables()) }}
