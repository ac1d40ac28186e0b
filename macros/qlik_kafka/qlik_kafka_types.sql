{% macro qlik_kafka_types() %}
    {#- The Qlik Replicate data type names a metadata message may give a column (spec B.3,
        Replicate's internal types), upper case; qlik_kafka_value_text checks a value of
        each. LOB types (qlik_kafka_lob_types) are never marked in changeMask (spec B.5). -#}
    {{ return(['INT1', 'INT2', 'INT4', 'INT8', 'UINT1', 'UINT2', 'UINT4', 'UINT8', 'NUMERIC',
               'REAL4', 'REAL8', 'DATE', 'TIME', 'DATETIME', 'BOOLEAN', 'STRING', 'WSTRING',
               'BYTES', 'CLOB', 'NCLOB', 'BLOB']) }}
{% endmacro %}
