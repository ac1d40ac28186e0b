{% macro qlik_ct_typed_value(column, relation_alias) %}
    {#- One landed data column as its configured type (column: an entry of
        qlik_ct_layout's data_columns): as landed when the types agree; binary text decoded
        with its encoding (cdc_binary_from_text: hex | base64, an odd count of hex digits is
        not bytes); otherwise try_cast. A value that does not convert is NULL here and named
        by qlik_ct_cast_errors. -#}
    {%- set value = relation_alias ~ '.' ~ column.name -%}
    {%- if column.encoding -%}
        {{ cdc_history.cdc_binary_from_text(value, column.encoding) }}
    {%- elif column.type != column.source_type -%}
        try_cast({{ value }} as {{ column.type }})
    {%- else -%}
        {{ value }}
    {%- endif -%}
{%- endmacro %}
