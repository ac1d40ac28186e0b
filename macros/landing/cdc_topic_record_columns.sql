{% macro cdc_topic_record_columns(relation, malformed_column) %}
    {#- The columns of one landed Kafka topic record (as a Kafka sink or Spark Structured
        Streaming writes it), typed, for a select list: topic, kafka_partition,
        kafka_offset, message_key, message_value (JSON text), kafka_timestamp and
        malformed_record (cdc_malformed_record). -#}
        cast({{ relation }}.`topic` as string) as topic,
        cast({{ relation }}.`partition` as int) as kafka_partition,
        cast({{ relation }}.`offset` as bigint) as kafka_offset,
        cast({{ relation }}.`key` as string) as message_key,
        cast({{ relation }}.`value` as string) as message_value,
        cast({{ relation }}.`timestamp` as timestamp) as kafka_timestamp,
        {{ cdc_history.cdc_malformed_record(relation, malformed_column) }}
            as malformed_record
{%- endmacro %}
