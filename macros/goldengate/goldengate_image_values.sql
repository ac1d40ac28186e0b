{% macro goldengate_image_values(table_name, image) %}
    {#- An array of one struct per declared column of `table_name` (in column order) for an
        image map expression (column name as GoldenGate wrote it -> value text): column
        (lower case), type, is_key, occurrences (how many image entries name it, without case),
        is_missing (JSON `<column>_isMissing: true`, spec E.4), is_present (named once or
        more and not missing: an absent column is unknown, never NULL; spec E.2, E.5),
        raw (the value as written), text (goldengate_value_text: NULL when it is not of
        the column's type; binary decoded with the column's cdc_column_encoding) and
        binary_error (binary columns: the reason of cdc_binary_text_error, else NULL). -#}
    {%- set columns = cdc_table_columns(table_name) -%}
    array(
        {%- for column in columns %}
        {%- set encoding = cdc_column_encoding(table_name, column.name)
            if column.type == 'binary' else 'base64' %}
        named_struct(
            'column', {{ sql_string_literal(column.name) }},
            'type', {{ sql_string_literal(column.type) }},
            'is_key', {{ 'true' if column.is_key else 'false' }},
            'occurrences', coalesce(size(filter(
                map_keys({{ image }}),
                image_key -> lower(image_key) = {{ sql_string_literal(column.name) }}
            )), 0),
            'is_missing', coalesce(exists(
                map_entries({{ image }}),
                entry -> lower(entry.key)
                = {{ sql_string_literal(column.name ~ '_ismissing') }}
                and lower(trim(entry.value)) = 'true'
            ), false),
            'is_present', coalesce(exists(
                map_keys({{ image }}),
                image_key -> lower(image_key) = {{ sql_string_literal(column.name) }}
            ), false)
            and not coalesce(exists(
                map_entries({{ image }}),
                entry -> lower(entry.key)
                = {{ sql_string_literal(column.name ~ '_ismissing') }}
                and lower(trim(entry.value)) = 'true'
            ), false),
            'raw', try_element_at(filter(
                map_entries({{ image }}),
                entry -> lower(entry.key) = {{ sql_string_literal(column.name) }}
            ), 1).value,
            'text', {{ goldengate_value_text(
                'try_element_at(filter(map_entries(' ~ image ~ '), entry -> lower(entry.key) = '
                ~ sql_string_literal(column.name) ~ '), 1).value', column.type, encoding) }},
            'binary_error', {{ sql_string_literal(cdc_binary_text_error(column.name, encoding))
                if column.type == 'binary' else 'cast(null as string)' }}
        ){{ ',' if not loop.last }}
        {%- endfor %}
    )
{%- endmacro %}
