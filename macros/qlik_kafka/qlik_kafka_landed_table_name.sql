{% macro qlik_kafka_landed_table_name(topic) %}
    {#- The table a topic is landed as, an identifier: the topic itself when it is one (the
        only case in tables and seeds mode), else, in files mode, topic_ and the topic with
        each run of other characters replaced by _ (src.sales-customers:
        topic_src_sales_customers), the name its folder is registered under and the name of
        its source table (the scaffold writes the same: python_udfs/scaffold.py
        landed_table_name). qlik_kafka_landed_tables stops when two topics get one name. -#}
    {%- if cdc_history.cdc_is_identifier(topic) -%}
        {{ return(topic) }}
    {%- endif -%}
    {{ return('topic_' ~ modules.re.sub('[^A-Za-z0-9_]+', '_', topic | string)) }}
{% endmacro %}
