{% test canonical_contract(model, columns='cdc_canonical_columns') %}
{#- The model's columns are exactly the named column list (a macro: cdc_canonical_columns
    or cdc_quarantine_columns), in order, with its types: the contract every source
    format's int_<source_system>__changes_canonical / __rows_quarantined model keeps, so
    the unions in fct_cdc_changes and fct_cdc_quarantine never depend on a format. One row
    per difference. -#}
{%- set expected = context[columns]() if execute else [] -%}
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
    select {{ sql_string_literal(difference) }}
    {%- endfor %}

),

contract_differences as (

    select * from differences where difference is not null

)

select * from contract_differences
{% endtest %}
