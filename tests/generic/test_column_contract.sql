{% test column_contract(model, columns='cdc_canonical_columns', table_name=none) %}
{#- The model's columns are exactly the named column list (a macro returning
    [{name, data_type}]), in order, with its types. cdc_canonical_columns and
    cdc_quarantine_columns: the contract every source format's
    int_<source_system>__changes_canonical / __rows_quarantined model keeps, so the unions
    in fct_cdc_changes and fct_cdc_quarantine never depend on a format;
    cdc_table_image_columns with table_name: the declared layout of
    int_<table>__change_images, which every state model reads. Read from the table's
    description, no data scanned. One row per difference. -#}
{%- set column_list = cdc_history.cdc_macro_named(columns) -%}
{%- set expected = (column_list(table_name) if table_name is not none
                    else column_list()) if execute else [] -%}
{%- set actual = adapter.get_columns_in_relation(model) if execute else [] -%}
{%- set differences = [] -%}
{%- if execute -%}
    {%- for position in range([expected | length, actual | length] | max) -%}
        {%- set want = expected[position] if position < expected | length else none -%}
        {%- set have = actual[position] if position < actual | length else none -%}
        {%- set want_text = (want.name ~ ' ' ~ want.data_type | replace(' ', ''))
            if want else 'nothing' -%}
        {%- set have_text = ((have.name | lower) ~ ' ' ~ (have.data_type | lower | replace(' ', '')))
            if have else 'nothing' -%}
        {%- if want_text != have_text -%}
            {%- do differences.append(
                'column ' ~ (position + 1) ~ ': expected ' ~ want_text ~ ', found ' ~ have_text) -%}
        {%- endif -%}
    {%- endfor -%}
{%- endif %}
with

differences as (

    select cast(null as string) as difference
    {%- for difference in differences %}
    union all
    select {{ cdc_history.sql_string_literal(difference) }}
    {%- endfor %}

),

contract_differences as (

    select * from differences where difference is not null

)

select * from contract_differences
{% endtest %}
