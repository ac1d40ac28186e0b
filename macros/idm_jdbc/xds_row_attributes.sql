{% macro xds_row_attributes(table_name, row_image) %}
    {#- The attributes a query-back row event (types 5, 6) re-reads (spec C.5): one
        struct(column_name, value_type, old_value, new_value) per NON-key column of the
        table, in the column order declared in var cdc_tables, new_value taken from a
        row-image map (the resolved snapshot row) and old_value NULL. NULL for a table
        not declared there. table_name is a string SQL expression; row_image a
        map<string,string> SQL expression. -#}
    {%- if table_name is none or row_image is none -%}
        {{ exceptions.raise_compiler_error(
            "xds_row_attributes: table_name and row_image are required") }}
    {%- endif -%}
    {%- set attribute_type =
        'array<struct<column_name:string,value_type:string,'
        ~ 'old_value:string,new_value:string>>' -%}
    {%- set tables = cdc_history.cdc_tables_of('idm_jdbc') -%}
    {%- if not tables -%}
    cast(null as {{ attribute_type }})
    {%- else -%}
    case {{ table_name }}
        {%- for name in tables %}
        {%- set value_columns = cdc_history.cdc_table_columns(name) | rejectattr('is_key') | list %}
        when {{ cdc_history.sql_string_literal(name) }} then cast(array(
            {%- for column in value_columns %}
            named_struct(
                'column_name', {{ cdc_history.sql_string_literal(column.name) }},
                'value_type',
                '{{ "octet" if column.type == "binary" else "string" }}',
                'old_value', cast(null as string),
                'new_value', {{ row_image }}[{{ cdc_history.sql_string_literal(column.name) }}]
            ){{ ',' if not loop.last }}
            {%- endfor %}
        ) as {{ attribute_type }})
        {%- endfor %}
    end
    {%- endif -%}
{%- endmacro %}
