{{ config(
    enabled=cdc_source_system_enabled('qlik_kafka'),
    materialized='table',
    meta={'cdc_written_by_content': true}
) }}
{#- One row per landed Qlik Kafka file (files mode), with what keeps it out. -#}
{{ stage_landed_files('qlik_kafka', qlik_kafka_landed_tables()) }}
