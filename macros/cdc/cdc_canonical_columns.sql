{% macro cdc_canonical_columns() %}
    {#- The columns of the canonical change log (spec F.1), in order, with their Spark
        types: the one definition every int_<source_system>__changes_canonical model and
        fct_cdc_changes select through (cdc_canonical_select) and are tested against
        (the column_contract test). -#}
    {{ return([
        {'name': 'change_id', 'data_type': 'string'},
        {'name': 'source_system', 'data_type': 'string'},
        {'name': 'source_instance', 'data_type': 'string'},
        {'name': 'source_schema', 'data_type': 'string'},
        {'name': 'source_table', 'data_type': 'string'},
        {'name': 'source_table_norm', 'data_type': 'string'},
        {'name': 'op', 'data_type': 'string'},
        {'name': 'control_op', 'data_type': 'string'},
        {'name': 'is_snapshot', 'data_type': 'boolean'},
        {'name': 'has_before_image', 'data_type': 'boolean'},
        {'name': 'pk', 'data_type': 'map<string,string>'},
        {'name': 'pk_string', 'data_type': 'string'},
        {'name': 'pk_before', 'data_type': 'map<string,string>'},
        {'name': 'pk_changed', 'data_type': 'boolean'},
        {'name': 'order_scope', 'data_type': 'string'},
        {'name': 'order_key', 'data_type': 'string'},
        {'name': 'txn_id', 'data_type': 'string'},
        {'name': 'txn_seq', 'data_type': 'bigint'},
        {'name': 'txn_last', 'data_type': 'boolean'},
        {'name': 'commit_ts', 'data_type': 'timestamp'},
        {'name': 'op_ts', 'data_type': 'timestamp'},
        {'name': 'effective_at', 'data_type': 'timestamp'},
        {'name': 'changed_columns', 'data_type': 'array<string>'},
        {'name': 'present_columns', 'data_type': 'array<string>'},
        {'name': 'before_image', 'data_type': 'map<string,string>'},
        {'name': 'after_image', 'data_type': 'map<string,string>'},
        {'name': 'image_complete', 'data_type': 'boolean'},
        {'name': 'needs_lookup', 'data_type': 'boolean'},
        {'name': 'flags', 'data_type': 'array<string>'},
        {'name': 'raw_source', 'data_type': 'string'},
        {'name': 'raw_key', 'data_type': 'string'},
        {'name': 'loaded_at', 'data_type': 'timestamp'}
    ]) }}
{% endmacro %}
