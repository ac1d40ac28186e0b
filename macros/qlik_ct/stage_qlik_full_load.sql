{% macro stage_qlik_full_load(table_name) %}
    {#- The whole body of stg_qlik_ct__<table>_baseline: the full-load (target) table, i.e. the
        image the change table starts from (spec A.1), one row per landed row, typed like the
        change table's data columns, judged like it (files mode: readable files only; a
        malformed CSV record is invalid; rows whose key another row has are invalid, all of
        them: which one is right is unknown). A view: it reflects a reload at once.
        Disabled when the table is not a qlik_ct table of var cdc_tables. -#}
    {%- if table_name not in cdc_history.cdc_tables_of('qlik_ct') -%}
        {{ config(enabled=false) }}
    {%- else -%}
    {{- config(materialized='view',
        meta={'cdc_landed_inputs': {
            'source_system': 'qlik_ct', 'tables': [table_name]}}) -}}
    {%- set layout = cdc_history.qlik_ct_layout(table_name) -%}
    {%- set baseline = source('qlik_ct', table_name) %}

{{ cdc_history.depends_on_landing_seed(table_name, 'qlik_ct') }}

with

source as (

    select * from {{ baseline }} as landed
    where {{ cdc_history.cdc_landing_files_filter('qlik_ct', table_name, 'landed') }}

),

typed as (

    select
        {{ cdc_history.sql_string_literal(table_name) }} as source_table,
        {{ cdc_history.qlik_ct_typed_columns(layout, 'source') }},
        {{ cdc_history.cdc_malformed_record('source', layout.malformed_column) }}
            as malformed_record,
        concat_ws(
            '; ',
            nullif({{ cdc_history.qlik_ct_cast_errors(layout, 'source') }}, ''),
            {%- for name in layout.key_columns %}
            case when source.{{ name }} is null then {{ cdc_history.sql_string_literal('null key value in ' ~ name) }} end,
            {%- endfor %}
            cast(null as string)
        ) as reasons,
        count(*) over (
            partition by
            {%- for name in layout.key_columns %}
            source.{{ name }}{{ ',' if not loop.last }}
            {%- endfor %}
        ) as rows_with_this_key
    from source

),

final as (

    select
        typed.source_table,
        {% for column in layout.data_columns -%}
        typed.{{ column.name }},
        {% endfor -%}
        case
            when typed.malformed_record is not null
                then {{ cdc_history.cdc_malformed_reason() }}
            when typed.reasons != '' then typed.reasons
            when typed.rows_with_this_key > 1
                then concat(
                    'duplicate key: ', typed.rows_with_this_key,
                    ' rows of the full load have this key'
                )
        end as invalid_reason,
        typed.malformed_record is null
        and typed.reasons = ''
        and typed.rows_with_this_key = 1 as is_valid,
        typed.malformed_record
    from typed

)

select * from final
    {%- endif -%}
{% endmacro %}
