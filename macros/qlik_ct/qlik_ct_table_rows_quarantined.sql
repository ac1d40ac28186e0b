{% macro qlik_ct_table_rows_quarantined(table_name) %}
    {#- The whole body of int_qlik_ct__<table>_rows_quarantined (a view): one row
        per landed row of one Qlik table that cannot flow on (spec A.12), with the
        reason: change-table rows the staging judged invalid (a malformed CSV
        record with its raw text), before-images with no valid U at their
        change_seq, invalid full-load rows. int_qlik_ct__rows_quarantined is a
        short union of these views. Disabled when the table is not a qlik_ct table
        of var cdc_tables. -#}
    {%- if table_name not in cdc_history.cdc_tables_of('qlik_ct') -%}
        {{ config(enabled=false) }}
    {%- else -%}
    {%- set layout = cdc_history.qlik_ct_layout(table_name) -%}
with

staged as (

    select * from {{ cdc_history.qlik_ct_staged_rows(table_name) }} as stg

),

invalid as (

    select
        staged.source_table,
        {{ cdc_history.sql_string_literal(table_name ~ '__ct') }} as landed_table,
        staged.raw_key,
        staged.order_key,
        staged.invalid_reason as reason,
        case
            when staged.malformed_record is not null
                then to_json(
                    named_struct('malformed_record', staged.malformed_record)
                )
            else {{ cdc_history.qlik_ct_record_json(layout, 'staged') }}
        end as record_json,
        staged.loaded_at
    from staged
    where not staged.is_valid

),

orphan_before_images as (

    select
        before_images.source_table,
        {{ cdc_history.sql_string_literal(table_name ~ '__ct') }} as landed_table,
        before_images.raw_key,
        before_images.order_key,
        'orphan before-image: no valid U row has this change_seq' as reason,
        {{ cdc_history.qlik_ct_record_json(layout, 'before_images') }} as record_json,
        before_images.loaded_at
    from staged as before_images
    left anti join staged as update_rows
        on
            before_images.order_key = update_rows.order_key
            and update_rows.change_oper = 'U'
            and update_rows.is_valid
    where before_images.change_oper = 'B' and before_images.is_valid

),

full_load_invalid as (

    select
        baseline.source_table,
        {{ cdc_history.sql_string_literal(table_name) }} as landed_table,
        cast(null as string) as raw_key,
        cast(null as string) as order_key,
        baseline.invalid_reason as reason,
        case
            when baseline.malformed_record is not null
                then to_json(
                    named_struct('malformed_record', baseline.malformed_record)
                )
            else {{
                cdc_history.qlik_ct_record_json(layout, 'baseline', with_headers=false)
            }}
        end as record_json,
        cast(null as timestamp) as loaded_at
    from {{ ref('stg_qlik_ct__' ~ table_name ~ '_baseline') }} as baseline
    where not baseline.is_valid

)

select * from invalid
union all
select * from orphan_before_images
union all
select * from full_load_invalid
    {%- endif -%}
{% endmacro %}
