{% macro history_bitemporal(table_name) %}
    {#- The whole body of dim_<table>_history_bitemporal (a view): every version row
        dim_<table>_history has ever held, with the system time over which it held it,
        [known_from, known_to) (known_to NULL: it holds it now), from the record
        int_<table>__history_known (a fact's learned row paired with the row that gave it
        up). The rows known now equal dim_<table>_history (a data test says so). Disabled
        unless the table is in var cdc_tables with history option bitemporal true. -#}
    {%- set table = cdc_history.cdc_table_config(table_name) if table_name in cdc_history.cdc_var('cdc_tables') else {} -%}
    {%- if not table.get('bitemporal', false) -%}
        {{ config(enabled=false) }}
    {%- else -%}
    {#- a view: a table would be written again whole by every run that adds to the record -#}
    {{ config(materialized='view') }}
    {%- set names = cdc_history.cdc_table_columns(table_name) | map(attribute='name') | list %}
with

paired as (

    select
        known.*,
        lead(known.known_at) over (
            partition by known.pk_string, known.version_hash
            order by known.known_at
        ) as known_to
    from {{ ref('int_' ~ table_name ~ '__history_known') }} as known

)

select
    paired.pk_string,
    {%- for name in names %}
    paired.{{ name }},
    {%- endfor %}
    paired.is_deleted,
    paired.valid_from,
    paired.valid_to,
    paired.valid_from_order_key,
    paired.valid_to_order_key,
    paired.valid_to_order_key is null as is_current,
    paired.change_op,
    paired.change_id,
    paired.order_scope,
    paired.change_loaded_at,
    paired.known_at as known_from,
    paired.known_to,
    paired.known_to is null as is_known_now,
    paired.version_hash
from paired
where paired.is_known
    {%- endif -%}
{%- endmacro %}
