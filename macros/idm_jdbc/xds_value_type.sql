{% macro xds_value_type(table_name, column_name) %}
    {#- The XDS value type of a column of an IDM table (spec C.5): 'octet' for the columns
        declared binary in var cdc_tables (their logged values are Base64 text), else
        'string'. Columns and tables not declared are 'string'. table_name and column_name
        are string SQL expressions; column names compare in lower case. -#}
    {%- if table_name is none or column_name is none -%}
        {{ exceptions.raise_compiler_error(
            "xds_value_type: table_name and column_name are required") }}
    {%- endif -%}
    {%- set binary_columns = [] -%}
    {%- for name in cdc_history.cdc_tables_of('idm_jdbc') -%}
        {%- for column in cdc_history.cdc_table_columns(name) -%}
            {%- if column.type == 'binary' -%}
                {%- do binary_columns.append(name ~ '.' ~ column.name) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- if binary_columns -%}
    case
        when
            concat({{ table_name }}, '.', lower({{ column_name }}))
            in (
                {%- for column in binary_columns -%}
                {{ cdc_history.sql_string_literal(column) }}{{ ', ' if not loop.last }}
                {%- endfor -%}
            )
            then 'octet'
        else 'string'
    end
    {%- else -%}
    'string'
    {%- endif -%}
{%- endmacro %}
