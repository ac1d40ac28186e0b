{% macro qlik_kafka_landed_tables() %}
    {#- The landed topic tables of the Qlik Kafka format: each configured table's topic
        (cdc_tables.<table>.topic, default the table's name), then the metadata topic
        (var qlik_kafka_metadata_topic). A topic is landed as a table (or folder) of that
        name, so it must be an identifier. -#}
    {%- set landed = [] -%}
    {%- for table_name in cdc_tables_of('qlik_kafka') -%}
        {%- set topic = qlik_kafka_topic(table_name) -%}
        {%- if topic not in landed -%}{%- do landed.append(topic) -%}{%- endif -%}
    {%- endfor -%}
    {%- set metadata_topic = cdc_identifier(
        var('qlik_kafka_metadata_topic'), 'var qlik_kafka_metadata_topic') -%}
    {%- if metadata_topic in landed -%}
        {{ exceptions.raise_compiler_error(
            "qlik_kafka_landed_tables: var qlik_kafka_metadata_topic '" ~ metadata_topic
            ~ "' is also a table's topic; metadata messages need a topic of their own") }}
    {%- endif -%}
    {%- do landed.append(metadata_topic) -%}
    {{ return(landed) }}
{% endmacro %}
