{% macro goldengate_image_values(tables, image, table_name_expression) %}
    {#- An array of one struct per declared column of the table `table_name_expression`
        names (one of `tables`; NULL for any other), in column order, for an image map
        expression (column name as GoldenGate wrote it -> value text): column (lower case),
        type, is_key, occurrences (how many image entries name it, without case),
        is_missing (JSON `<column>_isMissing: true`, spec E.4), is_present (named once or
        more and not missing: an absent column is unknown, never NULL; spec E.2, E.5),
        raw (the value as written), text (goldengate_value_text: NULL when it is not of
        the column's type; binary decoded with the column's cdc_column_encoding) and
        binary_error (binary columns: the reason of cdc_binary_text_error, else NULL).

        One expression for every table: the tables' column lists are a map literal, walked
        by one lambda, and a value's text is read by one case per distinct (type, encoding)
        of the columns, so the generated code grows with the kinds of column, not with
        tables times columns (written out per column, it passed the JVM's 64 KB method
        limit and Spark ran the stage uncompiled). -#}
    {%- set entries = [] -%}
    {%- set readers = {} -%}
    {%- for table_name in tables -%}
        {%- set specs = [] -%}
        {%- for column in cdc_history.cdc_table_columns(table_name) -%}
            {%- set data_type = column.type | lower -%}
            {%- set encoding = cdc_history.cdc_column_encoding(table_name, column.name)
                if data_type == 'binary' else 'base64' -%}
            {%- do readers.update({data_type ~ '|' ~ encoding: [data_type, encoding]}) -%}
            {%- do specs.append(
                "named_struct('column', " ~ cdc_history.sql_string_literal(column.name)
                ~ ", 'type', " ~ cdc_history.sql_string_literal(column.type)
                ~ ", 'reader', " ~ cdc_history.sql_string_literal(data_type ~ '|' ~ encoding)
                ~ ", 'is_key', " ~ ('true' if column.is_key else 'false')
                ~ ", 'binary_error', "
                ~ (cdc_history.sql_string_literal(cdc_history.cdc_binary_text_error(column.name, encoding))
                   if data_type == 'binary' else 'cast(null as string)')
                ~ ")"
            ) -%}
        {%- endfor -%}
        {%- do entries.append(
            cdc_history.sql_string_literal(table_name) ~ ', array(' ~ specs | join(', ') ~ ')') -%}
    {%- endfor -%}
    transform(
        transform(
            map({{ entries | join(', ') }})[{{ table_name_expression }}],
            spec -> named_struct(
                'spec', spec,
                'occurrences', coalesce(size(filter(
                    map_keys({{ image }}),
                    image_key -> lower(image_key) = spec.column
                )), 0),
                'is_missing', coalesce(exists(
                    map_entries({{ image }}),
                    entry -> lower(entry.key) = concat(spec.column, '_ismissing')
                    and lower(trim(entry.value)) = 'true'
                ), false),
                'raw', try_element_at(filter(
                    map_entries({{ image }}),
                    entry -> lower(entry.key) = spec.column
                ), 1).value
            )
        ),
        value -> named_struct(
            'column', value.spec.column,
            'type', value.spec.type,
            'is_key', value.spec.is_key,
            'occurrences', value.occurrences,
            'is_missing', value.is_missing,
            'is_present', value.occurrences > 0 and not value.is_missing,
            'raw', value.raw,
            'text', case value.spec.reader
                {%- for reader, (data_type, encoding) in readers | dictsort %}
                when {{ cdc_history.sql_string_literal(reader) }}
                    then {{ cdc_history.goldengate_value_text('value.raw', data_type, encoding) }}
                {%- endfor %}
            end,
            'binary_error', value.spec.binary_error
        )
    )
{%- endmacro %}
