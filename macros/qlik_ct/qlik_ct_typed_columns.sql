{% macro qlik_ct_typed_columns(layout, relation_alias) %}
    {#- The select list of a Qlik table's data columns (layout: qlik_ct_layout), typed with
        qlik_ct_typed_value; see qlik_ct_cast_errors. -#}
    {%- for column in layout.data_columns %}
        {{ cdc_history.qlik_ct_typed_value(column, relation_alias) }} as {{ column.name }}
        {{- ',' if not loop.last }}
    {%- endfor %}
{%- endmacro %}
