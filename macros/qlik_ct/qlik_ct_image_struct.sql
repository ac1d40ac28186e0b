{% macro qlik_ct_image_struct(
    columns, prefix, image_oper, pk_string, is_before_image, row_exists, is_truncate
) %}
    {#- One image of a paired Qlik change row as a struct (qlik_ct_change_images unfolds
        them): image_oper, pk_string, is_before_image, row_exists, the typed data columns
        read as <prefix><column>, image_complete and present_columns. A truncate image
        carries no key and no values. -#}
    named_struct(
        'image_oper', {{ image_oper }},
        'pk_string', case when not {{ is_truncate }} then {{ pk_string }} end,
        'is_before_image', {{ is_before_image }},
        'row_exists', {{ row_exists }},
        {%- for column in columns %}
        {{ cdc_history.sql_string_literal(column.name) }},
        case when not {{ is_truncate }} then {{ prefix }}{{ column.name }} end,
        {%- endfor %}
        'image_complete', not {{ is_truncate }},
        'present_columns', case
            when not {{ is_truncate }}
                then {{ cdc_history.sql_string_array(columns | map(attribute='name') | list) }}
        end
    )
{%- endmacro %}
