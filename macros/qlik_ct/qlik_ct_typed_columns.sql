{% macro qlik_ct_typed_columns(layout, relation_alias) %}
    {#- The select list of a Qlik table's data columns (layout: qlik_ct_layout), typed: a
        column whose configured type differs from its landed type is try_cast; see
        qlik_ct_cast_errors. -#}
    {%- for column in layout.data_columns %}
        {%- if column.type != column.source_type %}
        try_cast({{ relation_alias }}.{{ column.name }} as {{ column.type }}) as {{ column.name }}
        {%- else %}
        {{ relation_alias }}.{{ column.name }}
        {%- endif %}{{ ',' if not loop.last }}
    {%- endfor %}
{%- endmacro %}
