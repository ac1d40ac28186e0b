{% macro qlik_ct_cast_errors(layout, relation_alias) %}
    {#- One text expression: '; '-joined reasons for landed values that do not cast to their
        configured type (never silently NULL), '' when all cast. -#}
    concat_ws(
        '; ',
        {%- for column in layout.data_columns if column.type != column.source_type %}
        case
            when
                {{ relation_alias }}.{{ column.name }} is not null
                and try_cast({{ relation_alias }}.{{ column.name }} as {{ column.type }}) is null
                then {{ sql_string_literal(
                    'value of ' ~ column.name ~ ' is not a valid ' ~ column.type
                ) }}
        end,
        {%- endfor %}
        cast(null as string)
    )
{%- endmacro %}
