{% macro cdc_distinct_rows(relation, identity, computed=[]) %}
    {#- A query of the distinct rows of `relation` (a CTE), each with the columns of
        `identity` and `computed` added (lists of [name, expression] pairs, each expression
        a function of the row's columns written with the alias `identified`, so the
        distinct rows are the same), shuffled by the identity columns first. A later window
        partitioned by the same columns (the rows that share an identity, e.g. a change
        sequence and an operation) then needs no shuffle of its own: the rows cross the
        network once, not twice. -#}
    {%- if not relation or not identity -%}
        {{ exceptions.raise_compiler_error(
            "cdc_distinct_rows: relation and identity are required") }}
    {%- endif -%}
    {%- set added = computed + identity -%}
    select distinct * from (
        select
            identified.*,
            {%- for name, expression in added %}
            {{ expression }} as {{ name }}{{ ',' if not loop.last }}
            {%- endfor %}
        from {{ relation }} as identified
        distribute by {{ identity | map('first') | join(', ') }}
    ) as identified_rows
{%- endmacro %}
