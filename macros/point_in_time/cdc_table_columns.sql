{% macro cdc_table_columns(table_name) %}
    {#- The typed data columns [{name, type, is_key}] of a configured table, from its source
        system's landed layout (for Qlik: the change table's DDL plus column_types). -#}
    {%- set table = cdc_table_config(table_name) -%}
    {%- set system = table.get('source_system') -%}
    {%- if system == 'qlik_ct' -%}
        {{ return(qlik_ct_layout(table_name).data_columns) }}
    {%- endif -%}
    {%- if table.get('columns') -%}
        {#- formats without DDL (IDM event log): columns and types declared in order -#}
        {%- set key_columns = cdc_key_columns(table_name) -%}
        {%- set columns = [] -%}
        {%- for name, data_type in table['columns'].items() -%}
            {%- do columns.append({'name': name | lower, 'type': data_type | lower,
                                   'source_type': 'string',
                                   'is_key': name | lower in key_columns}) -%}
        {%- endfor -%}
        {{ return(columns) }}
    {%- endif -%}
    {{ exceptions.raise_compiler_error(
        "cdc_table_columns: table '" ~ table_name ~ "' has source_system '" ~ system
        ~ "' and no 'columns' (name: type, in order) in var cdc_tables") }}
{% endmacro %}
