{% macro cdc_image_struct_of_log(
    columns, pk_string, image_oper, is_before_image, row_exists, image, image_complete,
    present_columns, when
) %}
    {#- One typed image of a canonical change as a struct, or NULL unless `when`: the text
        map `image` cast back to each column's type (cdc_text_value). -#}
    case
        when {{ when }} then named_struct(
            'pk_string', {{ pk_string }},
            'image_oper', {{ image_oper }},
            'is_before_image', {{ is_before_image }},
            'row_exists', {{ row_exists }},
            {%- for column in columns %}
            {{ sql_string_literal(column.name) }},
            {{ cdc_text_value(
                image ~ '[' ~ sql_string_literal(column.name) ~ ']', column.type
            ) }},
            {%- endfor %}
            'image_complete', {{ image_complete }},
            'present_columns', {{ present_columns }}
        )
    end
{%- endmacro %}
