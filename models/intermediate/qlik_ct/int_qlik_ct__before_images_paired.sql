{{ config(enabled=cdc_source_system_enabled('qlik_ct')) }}
{#- One row per valid I/U/D/TRUNCATE change-table row of every configured Qlik
    table, its before-image (the B row with the same change_seq, spec A.3/A.7)
    beside it. #}
{%- set tables = cdc_tables_of('qlik_ct') %}

with

{% for table_name in tables -%}
{%- set key_columns = cdc_key_columns(table_name) -%}
{%- set data_columns = qlik_ct_layout(table_name).data_columns -%}
{{ table_name }}_rows as (

    select
        staged.source_table,
        staged.raw_key,
        staged.order_key,
        staged.change_seq_at,
        staged.change_oper,
        staged.is_truncate,
        staged.transaction_id,
        staged.stream_position,
        staged.op_ts,
        staged.changed_columns,
        staged.flags,
        staged.loaded_at,
        {{ cdc_image_map(data_columns, 'staged') }} as row_image,
        {{ sql_string_array(data_columns | map(attribute='name') | list) }}
            as present_columns
    from {{ ref('stg_qlik_ct__' ~ table_name) }} as staged
    where staged.is_valid

),

{{ table_name }}_paired as (

    select
        change_rows.*,
        {{ cdc_pk_string(key_columns, "change_rows.row_image['{column}']") }}
            as pk_string,
        {{ cdc_pk_map(key_columns, 'change_rows.row_image') }} as pk,
        before_images.row_image as before_image_row,
        {{ cdc_pk_string(key_columns, "before_images.row_image['{column}']") }}
            as before_image_pk_string,
        {{ cdc_pk_map(key_columns, 'before_images.row_image') }}
            as before_image_pk,
        exists(
            change_rows.changed_columns,
            column_name -> array_contains(
                {{ sql_string_array(key_columns) }}, column_name
            )
        ) as mask_sets_key_bits
    from {{ table_name }}_rows as change_rows
    left join {{ table_name }}_rows as before_images
        on
            change_rows.order_key = before_images.order_key
            and before_images.change_oper = 'B'
    where change_rows.change_oper is null or change_rows.change_oper != 'B'

),

{% endfor -%}

unioned as (

    {% for table_name in tables -%}
    select * from {{ table_name }}_paired
    {% if not loop.last %}union all{% endif %}
    {% endfor %}

)

select * from unioned
