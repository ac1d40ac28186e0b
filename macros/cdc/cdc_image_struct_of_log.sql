{% macro cdc_image_struct_of_log(columns, kind) %}
    {#- One typed image of a canonical change as a struct, or NULL unless kind.when: the
        text map kind.image cast back to each column's type (cdc_text_value). `kind` is
        one entry of cdc_log_image_kinds. -#}
    case
        when {{ kind.when }} then named_struct(
            'pk_string', {{ kind.pk_string }},
            'image_oper', {{ kind.image_oper }},
            'is_before_image', {{ kind.is_before_image }},
            'row_exists', {{ kind.row_exists }},
            {%- for column in columns %}
            {{ sql_string_literal(column.name) }},
            {{ cdc_text_value(
                kind.image ~ '[' ~ sql_string_literal(column.name) ~ ']', column.type
            ) }},
            {%- endfor %}
            'image_complete', {{ kind.image_complete }},
            'present_columns', {{ kind.present_columns }}
        )
    end
{%- endmacro %}
