{% macro cdc_table_property(relation, key) %}
    {#- A table property's value, or none when the table or the property does not exist. -#}
    {%- if not execute -%}{{ return(none) }}{%- endif -%}
    {%- set existing = adapter.get_relation(relation.database, relation.schema, relation.identifier) -%}
    {%- if existing is none -%}{{ return(none) }}{%- endif -%}
    {%- for row in run_query('show tblproperties ' ~ relation) -%}
        {%- if row[0] == key -%}{{ return(row[1]) }}{%- endif -%}
    {%- endfor -%}
    {{ return(none) }}
{% endmacro %}
