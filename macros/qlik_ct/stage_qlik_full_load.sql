{% macro stage_qlik_full_load(table_name) %}
    {#- The whole body of stg_qlik_ct__<table>_baseline: the full-load (target) table, i.e. the
        image the change table starts from (spec A.1), one row per landed row, typed like the
        change table's data columns, judged like it. A view: it reflects a reload at once.
        Disabled when the table is not in var cdc_tables. -#}
    {%- if table_name not in var('cdc_tables') -%}
        {{ config(enabled=false) }}
    {%- else -%}
    {{- config(materialized='view') -}}
    {%- set layout = qlik_ct_layout(table_name) -%}
    {%- set baseline = source('qlik_ct', table_name) %}

{{ depends_on_landing_seed(table_name) }}

with

source as (

    select * from {{ baseline }}

),

typed as (

    select
        {{ sql_string_literal(table_name) }} as source_table,
        {{ qlik_ct_typed_columns(layout, 'source') }},
        concat_ws(
            '; ',
            nullif({{ qlik_ct_cast_errors(layout, 'source') }}, ''),
            {%- for name in layout.key_columns %}
            case when source.{{ name }} is null then {{ sql_string_literal('null key value in ' ~ name) }} end,
            {%- endfor %}
            cast(null as string)
        ) as reasons
    from source

),

final as (

    select
        typed.source_table,
        {% for column in layout.data_columns -%}
        typed.{{ column.name }},
        {% endfor -%}
        nullif(typed.reasons, '') as invalid_reason,
        typed.reasons = '' as is_valid
    from typed

)

select * from final
    {%- endif -%}
{% endmacro %}
