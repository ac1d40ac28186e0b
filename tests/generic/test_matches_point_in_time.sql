{% test matches_point_in_time(model, table_name, point='latest') %}
{#- The table function <table>_as_of(point) returns exactly the model's rows (keys and
    every data column), both ways, as multisets: one row per difference, with how many
    more copies one side holds (NULLs compare equal, as in `except all`). At 'latest'
    this proves current state = point in time. With the primary_key test of dim_<table>_as_of it also
    proves the model's pk_string unique and not null: a key twice, or a NULL key, is a row
    "only in" the model (dim_<table>_live needs no key test of its own). -#}
{#- a table not in var cdc_tables has its models disabled: nothing to test -#}
{%- if table_name in var('cdc_tables') %}
-- depends_on: {{ ref('dim_' ~ table_name ~ '_as_of') }}
{%- set columns = ['pk_string'] + (cdc_table_columns(table_name) | map(attribute='name') | list) %}
{%- set row_struct -%}
named_struct(
    {%- for column in columns %}
    {{ sql_string_literal(column) }}, {{ column }}{{ ',' if not loop.last }}
    {%- endfor %}
)
{%- endset %}
with

weighed as (

    {# each row +1 from the model, -1 from the function, its columns in one struct (so no
       column of the table can clash with `weight`): a row both sides hold equally often
       sums to 0; one aggregate, each side read once (two `except all` aggregate twice) #}
    select {{ row_struct }} as table_row, 1 as weight from {{ model }}
    union all
    select {{ row_struct }} as table_row, -1 as weight
    from {{ model.schema }}.{{ table_name }}_as_of({{ sql_string_literal(point) }})

),

differences as (

    select
        case
            when sum(weighed.weight) > 0
                then {{ sql_string_literal('only in ' ~ model.identifier) }}
            else {{ sql_string_literal('only in ' ~ table_name ~ '_as_of') }}
        end as difference,
        abs(sum(weighed.weight)) as copies,
        weighed.table_row
    from weighed
    group by weighed.table_row
    having sum(weighed.weight) != 0

)

select differences.difference, differences.copies, differences.table_row.*
from differences
{%- else %}
select 1 as unconfigured_table where false
{%- endif %}
{% endtest %}
