{% macro qlik_kafka_topic(table_name) %}
    {#- The topic that carries a Qlik Kafka table's data messages: cdc_tables.<table>.topic,
        default the table's name; checked by qlik_kafka_checked_topic (an identifier where it
        names a landed table, a folder name in files mode). -#}
    {%- set topic = cdc_history.cdc_table_config(table_name).get('topic', table_name) -%}
    {{ return(cdc_history.qlik_kafka_checked_topic(topic, 'cdc_tables.' ~ table_name ~ '.topic')) }}
{% endmacro %}
