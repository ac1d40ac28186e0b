{% macro qlik_kafka_landing_formats() %}
    {#- The file formats Qlik Kafka's landed topic folders may have (var
        qlik_kafka_landing_format): Parquet, or JSON Lines (json: one message a line). -#}
    {{ return(['parquet', 'json']) }}
{% endmacro %}
