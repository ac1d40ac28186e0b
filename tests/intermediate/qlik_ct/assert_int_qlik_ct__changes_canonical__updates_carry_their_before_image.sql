{{ config(enabled=cdc_source_system_enabled('qlik_ct')) }}
{#- A U whose before-image (B) is staged carries it in the canonical changes,
    also when the B arrived in a later batch than its U: the Qlik canonical
    changes are a view over staging, so the pair is made at read time. Staged
    rows as their readers take them (qlik_ct_staged_rows). #}

with

{% for table_name in cdc_tables_of('qlik_ct') -%}
{{ table_name }}_before_images as (

    select
        staged.source_table,
        staged.order_key
    from {{ qlik_ct_staged_rows(table_name) }} as staged
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
    from {{ ref('int_qlik_ct__changes_canonical') }} as change_log
    inner join before_images
        on
            change_log.source_table = before_images.source_table
            and change_log.order_key = before_images.order_key
    where change_log.op = 'U' and not change_log.has_before_image

)

select * from updates_without_before_image
