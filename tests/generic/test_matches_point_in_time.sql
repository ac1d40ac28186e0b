{% test matches_point_in_time(model, table_name, point='latest', also=[]) %}
{#- The table function <table>_as_of(point) returns exactly the model's rows (keys and
    every data column), both ways, as multisets, and exactly the rows of each model named in
    `also` (other relations of the same table, e.g. dim_<table>_live), all against one
    evaluation of the function: one row per difference, with the relation it was compared
    with and how many more copies one side holds (NULLs compare equal, as in `except all`).
    At 'latest' this proves current state = point in time = live view.

    It also checks the model's own key, pk_string, unique and never NULL (one row per
    offending key: 'key twice in <model>' or 'NULL key in <model>', with the number of rows
    and one of them), so the model needs no primary_key test of its own (one dbt node and
    one query fewer a table). That proves the function's and every `also` model's
    pk_string unique and not null as well: a key twice, or a NULL key, is a row "only in"
    one side, since the model holds neither. -#}
{#- a table not in var cdc_tables has its models disabled: nothing to test -#}
{%- if table_name in cdc_history.cdc_var('cdc_tables') %}
-- depends_on: {{ ref('dim_' ~ table_name ~ '_as_of') }}
{%- for name in also %}
-- depends_on: {{ ref(name) }}
{%- endfor %}
{%- set columns = ['pk_string'] + (cdc_history.cdc_table_columns(table_name) | map(attribute='name') | list) %}
{%- set compared = [model.identifier] + also %}
{%- set row_struct -%}
named_struct(
    {%- for column in columns %}
    {{ cdc_history.sql_string_literal(column) }}, {{ column }}{{ ',' if not loop.last }}
    {%- endfor %}
)
{%- endset %}
with

weighed as (

    {# each relation's rows +1, the function's rows -1 once per relation they are compared
       with, its columns in one struct (so no column of the table can clash with `weight`):
       a row both sides hold equally often sums to 0; one aggregate, the function read once #}
    select
        {{ cdc_history.sql_string_literal(model.identifier) }} as compared_relation,
        {{ row_struct }} as table_row,
        1 as weight
    from {{ model }}
    {%- for name in also %}
    union all
    select
        {{ cdc_history.sql_string_literal(name) }} as compared_relation,
        {{ row_struct }} as table_row,
        1 as weight
    from {{ ref(name) }}
    {%- endfor %}
    union all
    select
        compared.compared_relation,
        {{ row_struct }} as table_row,
        -1 as weight
    from {{ model.schema }}.{{ table_name }}_as_of({{ cdc_history.sql_string_literal(point) }})
    cross join (
        values
        {%- for name in compared %}
        ({{ cdc_history.sql_string_literal(name) }}){{ ',' if not loop.last }}
        {%- endfor %}
    ) as compared (compared_relation)

),

differences as (

    select
        weighed.compared_relation,
        case
            when sum(weighed.weight) > 0
                then concat('only in ', weighed.compared_relation)
            else {{ cdc_history.sql_string_literal('only in ' ~ table_name ~ '_as_of') }}
        end as difference,
        abs(sum(weighed.weight)) as copies,
        weighed.table_row
    from weighed
    group by weighed.compared_relation, weighed.table_row
    having sum(weighed.weight) != 0

),

model_keys as (

    {# the model's own key: unique and never NULL #}
    select
        case
            when pk_string is null
                then {{ cdc_history.sql_string_literal('NULL key in ' ~ model.identifier) }}
            else {{ cdc_history.sql_string_literal('key twice in ' ~ model.identifier) }}
        end as difference,
        {{ cdc_history.sql_string_literal(model.identifier) }} as compared_relation,
        count(*) as copies,
        any_value({{ row_struct }}) as table_row
    from {{ model }}
    group by pk_string
    having count(*) > 1 or pk_string is null

),

problems as (

    select
        differences.difference,
        differences.compared_relation,
        differences.copies,
        differences.table_row
    from differences
    union all
    select
        model_keys.difference,
        model_keys.compared_relation,
        model_keys.copies,
        model_keys.table_row
    from model_keys

)

select
    problems.difference,
    problems.compared_relation,
    problems.copies,
    problems.table_row.*
from problems
{%- else %}
select 1 as unconfigured_table where false
{%- endif %}
{% endtest %}
