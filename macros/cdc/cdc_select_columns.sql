{% macro cdc_select_columns(columns, relation_alias) %}
    {#- The select list `cast(<alias>.<name> as <type>) as <name>, ...` of a column list
        such as cdc_canonical_columns(): every union branch and contract model selects
        through it, so names, order and types are written once. -#}
    {%- if not columns or not relation_alias -%}
        {{ exceptions.raise_compiler_error(
            "cdc_select_columns: columns and relation_alias are required") }}
    {%- endif -%}
    {%- for column in columns %}
    cast({{ relation_alias }}.{{ column.name }} as {{ column.data_type }})
        as {{ column.name }}{{ ',' if not loop.last }}
    {%- endfor %}
{%- endmacro %}
