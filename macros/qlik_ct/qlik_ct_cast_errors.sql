{% macro qlik_ct_cast_errors(layout, relation_alias) %}
    {#- One text expression: '; '-joined reasons for landed values that do not convert to
        their configured type or do not decode with their encoding (never silently NULL),
        naming the column (binary text: cdc_binary_text_error); '' when all convert. -#}
    concat_ws(
        '; ',
        {%- for column in layout.data_columns
            if column.encoding or column.type != column.source_type %}
        case
            when
                {{ relation_alias }}.{{ column.name }} is not null
                and {{ cdc_history.qlik_ct_typed_value(column, relation_alias) }} is null
                then {{ cdc_history.sql_string_literal(
                    cdc_history.cdc_binary_text_error(column.name, column.encoding) if column.encoding
                    else 'value of ' ~ column.name ~ ' is not a valid ' ~ column.type
                ) }}
        end,
        {%- endfor %}
        cast(null as string)
    )
{%- endmacro %}
