{% macro cdc_table_columns(table_name) %}
    {#- The typed data columns [{name, type, is_key}] of a configured table, resolved once
        per model: declared in var cdc_tables (`columns`, name: type or name: {type,
        description}, in order) or, when not declared, from the table's source format
        (<source_system>_table_columns, e.g. the Qlik change table's DDL). -#}
    {%- set table = cdc_history.cdc_table_config(table_name) -%}
    {%- set declared = table.get('columns') -%}
    {%- set key_columns = cdc_history.cdc_key_columns(table_name) -%}
    {%- if not declared and not execute -%}
        {#- parsing: the key stands in for the columns, no format code runs -#}
        {%- set placeholder = [] -%}
        {%- for name in key_columns -%}
            {%- do placeholder.append({'name': name, 'type': 'string', 'source_type': 'string',
                                       'is_key': true}) -%}
        {%- endfor -%}
        {{ return(placeholder) }}
    {%- endif -%}
    {%- if not declared -%}
        {{ return(cdc_history.cdc_call_format_macro(table.source_system, 'table_columns', table_name)) }}
    {%- endif -%}
    {%- set columns = [] -%}
    {%- for name, spec in declared.items() -%}
        {%- set data_type = spec.get('type') if spec is mapping else spec -%}
        {%- do columns.append({'name': name | lower, 'type': data_type | lower,
                               'source_type': 'string',
                               'is_key': name | lower in key_columns}) -%}
    {%- endfor -%}
    {{ return(columns) }}
{% endmacro %}
