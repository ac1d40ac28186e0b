{% macro cdc_python_udfs() %}
    {#- SQL names registered by python_udfs.spark.register_udfs (REGISTERED_UDFS). -#}
    {{ return(['decode_change_mask', 'decode_hex_change_mask', 'parse_table_key',
                    'cdc_landed_listing_digest', 'cdc_landed_files']) }}
{% endmacro %}
