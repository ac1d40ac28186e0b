{% macro cdc_table_columns(table_name) %}
    {#- The typed data columns [{name, type, is_key}] of a configured table, from its source
        system's landed layout (for Qlik: the change table's DDL plus column_types). -#}
    {%- set table = cdc_table_config(table_name) -%}
    {%- set system = table.get('source_system') -%}
    {%- if system == 'qlik_ct' -%}
        {{ return(qlik_ct_layout(table_name).data_columns) }}
    {%- endif -%}
    {{ exceptions.raise_compiler_error(
        "cdc_table_columns: table '" ~ table_name ~ "' has source_system '" ~ system
        ~ "', which has no column layout yet (known: qlik_ct)") }}
{% endmacro %}
