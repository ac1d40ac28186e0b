{% macro cdc_table_image_columns(table_name) %}
    {#- The declared layout of int_<table_name>__change_images, in order, with Spark types:
        the image's identity and position, the table's typed data columns
        (cdc_table_columns) in place of fct_cdc_change_images' text map, then what the
        image holds. Every format's <source_system>_change_images writes it, the
        column_contract test holds each table's model to it, and the history, current
        state, point in time, change queries and live view read it. -#}
    {%- set columns = [
        {'name': 'change_id', 'data_type': 'string'},
        {'name': 'source_system', 'data_type': 'string'},
        {'name': 'source_table', 'data_type': 'string'},
        {'name': 'order_scope', 'data_type': 'string'},
        {'name': 'order_key', 'data_type': 'string'},
        {'name': 'effective_at', 'data_type': 'timestamp'},
        {'name': 'pk_string', 'data_type': 'string'},
        {'name': 'image_oper', 'data_type': 'string'},
        {'name': 'is_before_image', 'data_type': 'boolean'},
        {'name': 'row_exists', 'data_type': 'boolean'}
    ] -%}
    {%- for column in cdc_history.cdc_table_columns(table_name) -%}
        {%- do columns.append({'name': column.name, 'data_type': cdc_history.cdc_spark_type_name(column.type)}) -%}
    {%- endfor -%}
    {%- do columns.extend([
        {'name': 'image_complete', 'data_type': 'boolean'},
        {'name': 'present_columns', 'data_type': 'array<string>'},
        {'name': 'loaded_at', 'data_type': 'timestamp'}
    ]) -%}
    {{ return(columns) }}
{% endmacro %}
