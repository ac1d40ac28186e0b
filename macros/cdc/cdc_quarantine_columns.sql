{% macro cdc_quarantine_columns() %}
    {#- The columns of every int_<source_system>__rows_quarantined model and of
        fct_cdc_quarantine (before its quarantine_id), in order, with their Spark types. -#}
    {{ return([
        {'name': 'source_system', 'data_type': 'string'},
        {'name': 'source_table', 'data_type': 'string'},
        {'name': 'landed_table', 'data_type': 'string'},
        {'name': 'raw_key', 'data_type': 'string'},
        {'name': 'order_key', 'data_type': 'string'},
        {'name': 'reason', 'data_type': 'string'},
        {'name': 'record_json', 'data_type': 'string'},
        {'name': 'loaded_at', 'data_type': 'timestamp'}
    ]) }}
{% endmacro %}
