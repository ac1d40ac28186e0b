{% test inserts_mark_every_column(model, column_name, table_name) %}
{#- Valid INSERT rows must decode to every data column but the table's lob_columns (seed
    000: "all inserted columns have their bit set"). A table that fails wholesale is the
    tell-tale of a wrong byte order for masks landed as hex text
    (var qlik_ct_hex_mask_byte_order). -#}
{#- a table not in var cdc_tables has its models disabled: nothing to test -#}
{%- if table_name in cdc_history.cdc_var('cdc_tables') %}
{%- set lob_columns = cdc_history.cdc_table_config(table_name).get('lob_columns', []) | map('lower') | list -%}
{%- set expected = [] -%}
{%- for column in cdc_history.cdc_table_columns(table_name) if column.name not in lob_columns -%}
    {%- do expected.append(column.name) -%}
{%- endfor %}
with

inserts as (

    select
        *,
        {{ cdc_history.sql_string_array(expected) }} as expected_columns
    from {{ model }}
    where change_oper = 'I' and is_valid

),

inserts_missing_columns as (

    select *
    from inserts
    where
        size(array_except(inserts.expected_columns, inserts.{{ column_name }})) > 0
        or size(array_except(
            inserts.{{ column_name }},
            array_union(inserts.expected_columns, {{ cdc_history.sql_string_array(lob_columns) }})
        )) > 0

)

select * from inserts_missing_columns
{%- else %}
select 1 as unconfigured_table where false
{%- endif %}
{% endtest %}
