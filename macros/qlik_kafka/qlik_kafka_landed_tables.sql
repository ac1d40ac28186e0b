{% macro qlik_kafka_landed_tables() %}
    {#- The landed topics of the Qlik Kafka format: each configured table's topic
        (cdc_tables.<table>.topic, default the table's name), then the metadata topic
        (var qlik_kafka_metadata_topic), each checked by qlik_kafka_checked_topic. A topic is
        landed as a table (tables, seeds) or a folder (files) of that name; its table's name
        is qlik_kafka_landed_table_name(topic), which must differ (in any case) between
        topics. -#}
    {%- set landed = [] -%}
    {%- for table_name in cdc_history.cdc_tables_of('qlik_kafka') -%}
        {%- set topic = cdc_history.qlik_kafka_topic(table_name) -%}
        {%- if topic not in landed -%}{%- do landed.append(topic) -%}{%- endif -%}
    {%- endfor -%}
    {%- set metadata_topic = cdc_history.qlik_kafka_checked_topic(
        cdc_history.cdc_var('qlik_kafka_metadata_topic'), 'var qlik_kafka_metadata_topic') -%}
    {%- if metadata_topic in landed -%}
        {{ exceptions.raise_compiler_error(
            "qlik_kafka_landed_tables: var qlik_kafka_metadata_topic '" ~ metadata_topic
            ~ "' is also a table's topic; metadata messages need a topic of their own") }}
    {%- endif -%}
    {%- do landed.append(metadata_topic) -%}
    {%- set named = {} -%}
    {%- for topic in landed -%}
        {%- set table_name = cdc_history.qlik_kafka_landed_table_name(topic) | lower -%}
        {%- if table_name in named -%}
            {{ exceptions.raise_compiler_error(
                "qlik_kafka_landed_tables: topics '" ~ named[table_name] ~ "' and '" ~ topic
                ~ "' would both be landed as table " ~ table_name
                ~ " (qlik_kafka_landed_table_name); rename one of them") }}
        {%- endif -%}
        {%- do named.update({table_name: topic}) -%}
    {%- endfor -%}
    {{ return(landed) }}
{% endmacro %}
