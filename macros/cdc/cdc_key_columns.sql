{% macro cdc_key_columns(table_name) %}
    {#- A configured table's key columns, lower case, in key order. -#}
    {{ return(cdc_history.cdc_table_config(table_name)['key_columns'] | map('lower') | list) }}
{% endmacro %}
