{% macro openedge_cdc_landed_names(relation) %}
    {#- The column names of a landed OpenEdge table, lower case, or none while parsing
        (then every field is assumed present). -#}
    {%- if not execute -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set names = [] -%}
    {%- for column in adapter.get_columns_in_relation(relation) -%}
        {%- do names.append(column.name | lower) -%}
    {%- endfor -%}
    {{ return(names) }}
{% endmacro %}
