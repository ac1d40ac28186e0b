{{ config(severity='warn') }}
{#- A U whose before-image (B) is staged must carry it in the log. It does not
    when the B arrived in a later batch than its U (the log is append-only):
    history is unaffected, as change-table U rows are full rows, but `--full-
    refresh` re-pairs. #}

with

{% for table_name in cdc_tables_of('qlik_ct') -%}
{{ table_name }}_before_images as (

    select
        staged.source_table,
        staged.order_key
    from {{ ref('stg_qlik_ct__' ~ table_name) }} as staged
    where staged.is_valid and staged.change_oper = 'B'

),

{% endfor -%}

before_images as (

    {% for table_name in cdc_tables_of('qlik_ct') -%}
    select * from {{ table_name }}_before_images
    {% if not loop.last %}union all{% endif %}
    {% endfor %}

),

updates_without_before_image as (

    select change_log.*
    from {{ ref('fct_cdc_changes') }} as change_log
    inner join before_images
        on
            change_log.source_table = before_images.source_table
            and change_log.order_key = before_images.order_key
    where change_log.op = 'U' and not change_log.has_before_image

)

select * from updates_without_before_image
