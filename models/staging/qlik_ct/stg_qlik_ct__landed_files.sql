{{ config(
    enabled=cdc_source_system_enabled('qlik_ct'),
    materialized='table',
    meta={'cdc_written_by_content': true}
) }}
{#- One row per landed Qlik file (files mode), with what keeps it out. -#}
{{ stage_landed_files('qlik_ct', qlik_ct_landed_tables()) }}
