{{ config(
    enabled=cdc_source_system_enabled('idm_jdbc'),
    materialized='table',
    meta={'cdc_written_by_content': true}
) }}
{#- One row per landed IDM file (files mode), with what keeps it out. -#}
{{ stage_landed_files('idm_jdbc', idm_jdbc_landed_tables()) }}
