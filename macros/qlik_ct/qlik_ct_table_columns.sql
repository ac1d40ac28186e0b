{% macro qlik_ct_table_columns(table_name) %}
    {#- The typed data columns [{name, type, is_key}] of a Qlik table: its change table's
        data columns (DDL) with the configured types (qlik_ct_layout). -#}
    {{ return(cdc_history.qlik_ct_layout(table_name).data_columns) }}
{% endmacro %}
