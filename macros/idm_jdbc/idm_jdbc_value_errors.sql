{% macro idm_jdbc_value_errors(relation_alias) %}
    {#- One text expression for an event log row: '; '-joined reasons why its table, key and
        values do not fit the table's declared columns (var cdc_tables, spec C.7), each naming
        the column; '' when they fit. Never silently NULL: a value that does not convert to
        its declared type (binary: text in the column's cdc_column_encoding, default Base64 as
        the driver logs it; cdc_binary_text_error) is a reason, not a
        NULL. Checked:
          table_name    one of the idm_jdbc tables of var cdc_tables;
          table_key     names each key column exactly once (case-insensitive) and nothing else;
                        each key value converts to its column's type;
          column_name   per-field events (1, 2, 3, 7, 8): one of the table's columns;
          values        types 1 to 3: new_value and old_value convert to the column's type.
        relation_alias holds the staged row: table_name, table_key_parsed (the UDF's struct),
        pk (lower-case names), event_type, column_name, old_value, new_value. -#}
    {%- if not relation_alias -%}
        {{ exceptions.raise_compiler_error("idm_jdbc_value_errors: relation_alias is required") }}
    {%- endif -%}
    {%- set row = relation_alias -%}
    {%- set tables = cdc_history.cdc_tables_of('idm_jdbc') -%}
    case
        when {{ row }}.table_name is null then ''
        {%- for table_name in tables %}
        {%- set columns = cdc_history.cdc_table_columns(table_name) %}
        {%- set key_columns = cdc_history.cdc_key_columns(table_name) | map('lower') | list %}
        {%- set column_names = columns | map(attribute='name') | list %}
        when {{ row }}.table_name = {{ cdc_history.sql_string_literal(table_name) }} then concat_ws(
            '; ',
            ---------- key names
            case
                when {{ row }}.table_key_parsed.error is not null then null
                when
                    size(array_distinct(transform(
                        {{ row }}.table_key_parsed.pairs, pair -> lower(pair.column)
                    ))) != size({{ row }}.table_key_parsed.pairs)
                    then 'table_key names a column more than once'
                when
                    array_sort(map_keys({{ row }}.pk))
                    != array_sort({{ cdc_history.sql_string_array(key_columns) }})
                    then concat(
                        'table_key names ',
                        array_join(map_keys({{ row }}.pk), ', '),
                        {{ cdc_history.sql_string_literal(
                            ' but the key of ' ~ table_name ~ ' is '
                            ~ key_columns | join(', ')) }}
                    )
            end,
            ---------- key values
            {%- for column in columns if column.is_key and column.type != 'string' %}
            {%- set encoding = cdc_history.cdc_column_encoding(table_name, column.name)
                if column.type == 'binary' else none %}
            case
                when
                    {{ row }}.pk[{{ cdc_history.sql_string_literal(column.name) }}] is not null
                    and {{ cdc_history.cdc_typed_value(
                        row ~ '.pk[' ~ cdc_history.sql_string_literal(column.name) ~ ']', column.type,
                        encoding
                    ) }} is null
                    then {{ cdc_history.sql_string_literal(
                        cdc_history.cdc_binary_text_error(column.name, encoding, 'key value')
                        if column.type == 'binary'
                        else 'key value of ' ~ column.name ~ ' is not '
                        ~ cdc_history.idm_jdbc_type_text(column.type)) }}
            end,
            {%- endfor %}
            ---------- column_name
            case
                when
                    {{ row }}.event_type in (1, 2, 3, 7, 8)
                    and {{ row }}.column_name is not null
                    and not array_contains(
                        {{ cdc_history.sql_string_array(column_names) }},
                        lower({{ row }}.column_name)
                    )
                    then concat(
                        'column_name ', {{ row }}.column_name,
                        {{ cdc_history.sql_string_literal(' is not a column of ' ~ table_name) }}
                    )
            end,
            ---------- values of types 1 to 3
            {%- for column in columns if column.type != 'string' %}
            {%- set encoding = cdc_history.cdc_column_encoding(table_name, column.name)
                if column.type == 'binary' else none %}
            {%- for side in ['new_value', 'old_value'] %}
            case
                when
                    {{ row }}.event_type in (1, 2, 3)
                    and lower({{ row }}.column_name) = {{ cdc_history.sql_string_literal(column.name) }}
                    and {{ row }}.{{ side }} is not null
                    and {{ cdc_history.cdc_typed_value(
                        row ~ '.' ~ side, column.type, encoding) }} is null
                    then {{ cdc_history.sql_string_literal(
                        cdc_history.cdc_binary_text_error(column.name, encoding, side)
                        if column.type == 'binary'
                        else side ~ ' of ' ~ column.name ~ ' is not '
                        ~ cdc_history.idm_jdbc_type_text(column.type)) }}
            end,
            {%- endfor %}
            {%- endfor %}
            cast(null as string)
        )
        {%- endfor %}
        else concat(
            'table_name ', {{ row }}.table_name,
            {{ cdc_history.sql_string_literal(
                ' is not an idm_jdbc table of var cdc_tables ('
                ~ tables | join(', ') ~ ')') }}
        )
    end
{%- endmacro %}
