{% macro qlik_kafka_topic(table_name) %}
    {#- The topic that carries a Qlik Kafka table's data messages: cdc_tables.<table>.topic,
        default the table's name; checked as an identifier (it names a landed table). -#}
    {%- set topic = cdc_table_config(table_name).get('topic', table_name) -%}
    {{ return(cdc_identifier(topic, 'cdc_tables.' ~ table_name ~ '.topic')) }}
{% endmacro %}
