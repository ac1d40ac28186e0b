{% macro cdc_pk_string_of_row(table_name, columns, relation_alias) %}
    {#- The canonical key string (spec F.2) of a typed row of `table_name`: its key columns
        in key order, each as canonical text (cdc_value_text of its type), through
        cdc_quote_key_value. Null when a key value is null. -#}
    {%- set types = {} -%}
    {%- for column in columns -%}{%- do types.update({column.name: column.type}) -%}{%- endfor -%}
    concat(
        {%- for name in cdc_history.cdc_key_columns(table_name) %}
        {{ cdc_history.sql_string_literal(('+' if not loop.first else '') ~ name ~ '=') }},
        {{ cdc_history.cdc_quote_key_value(
            '(' ~ cdc_history.cdc_value_text(relation_alias ~ '.' ~ name, types[name]) ~ ')'
        ) }}
        {{- ',' if not loop.last }}
        {%- endfor %}
    )
{%- endmacro %}
