{{ config(enabled=cdc_source_system_enabled('qlik_ct')) }}
{#- One row per landed Qlik row that cannot flow on (spec A.12), with the
    reason: rows the staging models judged invalid (a malformed CSV record with
    its raw text), before-images with no U at their change_seq, invalid
    full-load rows, and landed files kept out whole (stg_qlik_ct__landed_files:
    one row per file, raw_key its name). Nothing is dropped silently:
    every row is either here or in the log. A view: always current, so a row
    leaves it once its cause is fixed (e.g. the U of an orphan before-image
    arrives). #}

with

{% for table_name in cdc_tables_of('qlik_ct') -%}
{%- set layout = qlik_ct_layout(table_name) -%}
{{ table_name }}_staged as (

    select * from {{ ref('stg_qlik_ct__' ~ table_name) }}

),

{{ table_name }}_invalid as (

    select
        staged.source_table,
        {{ sql_string_literal(table_name ~ '__ct') }} as landed_table,
        staged.raw_key,
        staged.order_key,
        staged.invalid_reason as reason,
        case
            when staged.malformed_record is not null
                then to_json(
                    named_struct('malformed_record', staged.malformed_record)
                )
            else {{ qlik_ct_record_json(layout, 'staged') }}
        end as record_json,
        staged.loaded_at
    from {{ table_name }}_staged as staged
    where not staged.is_valid

),

{{ table_name }}_orphan_before_images as (

    select
        before_images.source_table,
        {{ sql_string_literal(table_name ~ '__ct') }} as landed_table,
        before_images.raw_key,
        before_images.order_key,
        'orphan before-image: no valid U row has this change_seq' as reason,
        {{ qlik_ct_record_json(layout, 'before_images') }}
            as record_json,
        before_images.loaded_at
    from {{ table_name }}_staged as before_images
    left anti join {{ table_name }}_staged as update_rows
        on
            before_images.order_key = update_rows.order_key
            and update_rows.change_oper = 'U'
            and update_rows.is_valid
    where before_images.change_oper = 'B' and before_images.is_valid

),

{{ table_name }}_baseline_invalid as (

    select
        baseline.source_table,
        {{ sql_string_literal(table_name) }} as landed_table,
        cast(null as string) as raw_key,
        cast(null as string) as order_key,
        baseline.invalid_reason as reason,
        case
            when baseline.malformed_record is not null
                then to_json(
                    named_struct('malformed_record', baseline.malformed_record)
                )
            else {{
                qlik_ct_record_json(layout, 'baseline', with_headers=false)
            }}
        end as record_json,
        cast(null as timestamp) as loaded_at
    from {{ ref('stg_qlik_ct__' ~ table_name ~ '_baseline') }} as baseline
    where not baseline.is_valid

),

{% endfor -%}

landed_files_kept_out as (

    {#- source_system is added to every row below #}
    select landed_files_with_system.* except (source_system)
    from (
        {{ cdc_landed_files_kept_out(
            'qlik_ct', "regexp_replace(landed_files.landed_table, '__ct$', '')"
        ) }}
    ) as landed_files_with_system

),

unioned as (

    {% for table_name in cdc_tables_of('qlik_ct') -%}
    select * from {{ table_name }}_invalid
    union all
    select * from {{ table_name }}_orphan_before_images
    union all
    select * from {{ table_name }}_baseline_invalid
    union all
    {% endfor %}
    select * from landed_files_kept_out

),

quarantined as (

    select
        'qlik_ct' as source_system,
        unioned.*
    from unioned

)

select
    {{- cdc_select_columns(cdc_quarantine_columns(), 'quarantined') }}
from quarantined
