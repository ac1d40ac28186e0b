{% macro qlik_kafka_lob_types() %}
    {#- The Qlik Replicate LOB types: never marked in changeMask (spec B.5). -#}
    {{ return(['CLOB', 'NCLOB', 'BLOB']) }}
{% endmacro %}
