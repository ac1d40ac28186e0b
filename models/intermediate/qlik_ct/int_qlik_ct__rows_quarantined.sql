{#- One row per landed Qlik row that cannot flow on (spec A.12), with the
    reason: rows the staging models judged invalid, before-images with no U at
    their change_seq, and invalid full-load rows. Nothing is dropped silently:
    every row is either here or in the log. #}

with

{% for table_name in cdc_tables_of('qlik_ct') -%}
{{ table_name }}_staged as (

    select * from {{ ref('stg_qlik_ct__' ~ table_name) }}

),

{{ table_name }}_invalid as (

    select
        staged.source_table,
        '{{ table_name }}__ct' as landed_table,
        staged.raw_key,
        staged.order_key,
        staged.invalid_reason as reason,
        {{ qlik_ct_record_json(table_name, 'staged') }}
            as record_json,
        staged.loaded_at
    from {{ table_name }}_staged as staged
    where not staged.is_valid

),

{{ table_name }}_orphan_before_images as (

    select
        before_images.source_table,
        '{{ table_name }}__ct' as landed_table,
        before_images.raw_key,
        before_images.order_key,
        'orphan before-image: no valid U row has this change_seq' as reason,
        {{ qlik_ct_record_json(table_name, 'before_images') }}
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
        '{{ table_name }}' as landed_table,
        cast(null as string) as raw_key,
        cast(null as string) as order_key,
        baseline.invalid_reason as reason,
        {{ qlik_ct_record_json(table_name, 'baseline', with_headers=false) }}
            as record_json,
        cast(null as timestamp) as loaded_at
    from {{ ref('stg_qlik_ct__' ~ table_name ~ '_baseline') }} as baseline
    where not baseline.is_valid

),

{% endfor -%}

unioned as (

    {% for table_name in cdc_tables_of('qlik_ct') -%}
    select * from {{ table_name }}_invalid
    union all
    select * from {{ table_name }}_orphan_before_images
    union all
    select * from {{ table_name }}_baseline_invalid
    {% if not loop.last %}union all{% endif %}
    {% endfor %}

)

select
    'qlik_ct' as source_system,
    unioned.*
from unioned
