{% macro qlik_kafka_table_columns(table_name) %}
    {#- A Qlik Kafka table declares its columns in var cdc_tables (a required key): the
        metadata messages arrive as data, not as DDL known when the models compile. -#}
    {{ exceptions.raise_compiler_error(
        "qlik_kafka_table_columns: cdc_tables." ~ table_name ~ " must declare columns "
        ~ "(every column of any table version, with its type)") }}
{% endmacro %}
