{% macro cdc_image_struct_of_log(columns, kind) %}
    {#- One image of a canonical change as a struct, or NULL unless kind.when (`kind` is one
        entry of cdc_log_image_kinds): with the table's `columns`, the text map kind.image
        cast back to each column's type (cdc_text_value), as int_<table>__change_images
        holds it; with `columns` none, the text map itself as `image`, as
        fct_cdc_change_images shows it. Both unfold a change's images in one pass over the
        log: `lateral view inline(filter(array(<one struct per kind>), i -> i is not null))`. -#}
    case
        when {{ kind.when }} then named_struct(
            'pk_string', {{ kind.pk_string }},
            'image_oper', {{ kind.image_oper }},
            'is_before_image', {{ kind.is_before_image }},
            'row_exists', {{ kind.row_exists }},
            {%- if columns is none %}
            'image', {{ kind.image }},
            {%- else %}
            {%- for column in columns %}
            {{ cdc_history.sql_string_literal(column.name) }},
            {{ cdc_history.cdc_text_value(
                kind.image ~ '[' ~ cdc_history.sql_string_literal(column.name) ~ ']', column.type
            ) }},
            {%- endfor %}
            {%- endif %}
            'image_complete', {{ kind.image_complete }},
            'present_columns', {{ kind.present_columns }}
        )
    end
{%- endmacro %}
