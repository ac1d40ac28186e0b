{% test every_delivery_staged(model, table_name) %}
{#- Every landed change-table row of a file that is read (cdc_landing_files_filter; the files
    kept out are quarantined whole) is staged (row_hash equal) or is an exact copy of a staged
    row. Holds by construction (a late conflicting duplicate is staged and judged invalid):
    it guards the incremental load against dropping a row silently. -#}
{#- a table not in var cdc_tables has its models disabled: nothing to test -#}
{%- if table_name in cdc_history.cdc_var('cdc_tables') %}
{%- set prefix = cdc_history.cdc_var('qlik_ct_header_prefix') %}
with

delivered as (

    select
        concat_ws(
            '+',
            coalesce(landed.{{ prefix }}change_seq, ''),
            coalesce(landed.{{ prefix }}change_oper, '')
        ) as raw_key,
        {{ cdc_history.qlik_ct_row_hash(cdc_history.qlik_ct_layout(table_name), 'landed') }} as row_hash
    from {{ source('qlik_ct', table_name ~ '__ct') }} as landed
    where {{ cdc_history.cdc_landing_files_filter('qlik_ct', table_name ~ '__ct', 'landed') }}

),

unstaged_deliveries as (

    select delivered.*
    from delivered
    left anti join {{ model }} as staged
        on
            delivered.raw_key = staged.raw_key
            and delivered.row_hash = staged.row_hash

)

select * from unstaged_deliveries
{%- else %}
select 1 as unconfigured_table where false
{%- endif %}
{% endtest %}
