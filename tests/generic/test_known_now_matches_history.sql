{% test known_now_matches_history(model, table_name) %}
{#- A bitemporal table's versions known now (dim_<table>_history_bitemporal, is_known_now)
    are exactly dim_<table>_history's rows, as multisets: the record of system time says
    what the history says. It also holds the record's pairing: a fact learned twice without
    being given up between would show twice. Each difference is returned with `problem`. -#}
{%- set compared = 'pk_string, ' ~ (cdc_history.cdc_table_columns(table_name) | map(attribute='name')
    | join(', ')) ~ ', is_deleted, valid_from, valid_to, valid_from_order_key,'
    ~ ' valid_to_order_key, is_current, change_op, change_id, order_scope, change_loaded_at' %}
with

known_now as (

    select {{ compared }}
    from {{ model }}
    where is_known_now

),

history as (

    select {{ compared }}
    from {{ ref('dim_' ~ table_name ~ '_history') }}

)

select
    'known now, not in the history' as problem,
    only_known.*
from (select * from known_now except all select * from history) as only_known
union all
select
    'in the history, not known now' as problem,
    only_history.*
from (select * from history except all select * from known_now) as only_history
{% endtest %}
