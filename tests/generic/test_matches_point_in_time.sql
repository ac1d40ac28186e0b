{% test matches_point_in_time(model, table_name, point='latest') %}
{#- The table function <table>_as_of(point) returns exactly the model's rows (keys and
    every data column), both ways, as multisets (except all). At 'latest' this proves
    current state = point in time. With the primary_key test of dim_<table>_as_of it also
    proves the model's pk_string unique and not null: a key twice, or a NULL key, is a row
    "only in" the model (dim_<table>_live needs no key test of its own). -#}
{#- a table not in var cdc_tables has its models disabled: nothing to test -#}
{%- if table_name in var('cdc_tables') %}
-- depends_on: {{ ref('dim_' ~ table_name ~ '_as_of') }}
{%- set columns = ['pk_string'] + (cdc_table_columns(table_name) | map(attribute='name') | list) %}
with

modelled as (

    select {{ columns | join(', ') }} from {{ model }}

),

as_of as (

    select {{ columns | join(', ') }}
    from {{ model.schema }}.{{ table_name }}_as_of({{ sql_string_literal(point) }})

),

only_in_model as (

    select {{ sql_string_literal('only in ' ~ model.identifier) }} as difference, * from (
        select * from modelled
        except all
        select * from as_of
    ) as missing

),

only_in_as_of as (

    select {{ sql_string_literal('only in ' ~ table_name ~ '_as_of') }} as difference, * from (
        select * from as_of
        except all
        select * from modelled
    ) as extra

),

differences as (

    select * from only_in_model
    union all
    select * from only_in_as_of

)

select * from differences
{%- else %}
select 1 as unconfigured_table where false
{%- endif %}
{% endtest %}
