{% macro qlik_ct_change_images(table_name) %}
    {#- The body of int_<table>__change_images for a Qlik change table: one row per image of
        a change, typed, in the seed 000 layout:
          I, U  the row after the change;   D  the deleted row;
          K     the old key of a U that changed the key (from its before-image), ending it;
          B     the before-image of a U (is_before_image), for the seed's left outer join;
          T     a TRUNCATE: no key, no values;
        and the full-load rows as snapshot inserts at order_key 000...0. Reads the valid
        staged rows once: each change row is paired with its B row (same change_seq) and
        unfolds into its images with one generator, no self-union. -#}
    {%- set columns = cdc_table_columns(table_name) -%}
    {%- set names = columns | map(attribute='name') | list -%}
    {%- set order_scope = 'qlik:' ~ var('qlik_ct_task') -%}
    {%- set snapshot_order_key = '0' * 35 %}
with

staged as (

    select *
    from {{ ref('stg_qlik_ct__' ~ table_name) }}
    where is_valid

),

keyed as (

    select
        {{ cdc_pk_string_of_row(table_name, columns, 'staged') }} as pk_string,
        staged.*
    from staged

),

before_images as (

    select keyed.* from keyed where keyed.change_oper = 'B'

),

paired as (

    select
        keyed.order_key,
        keyed.change_seq_at,
        keyed.loaded_at,
        keyed.is_truncate,
        keyed.change_oper,
        keyed.pk_string,
        {%- for name in names %}
        keyed.{{ name }},
        {%- endfor %}
        before_images.pk_string as before_pk_string,
        {%- for name in names %}
        before_images.{{ name }} as before__{{ name }}{{ ',' if not loop.last }}
        {%- endfor %}
    from keyed
    left join before_images
        on
            keyed.change_oper = 'U'
            and keyed.order_key = before_images.order_key
    where keyed.is_truncate or keyed.change_oper in ('I', 'U', 'D')

),

unfolded as (

    select
        paired.order_key,
        paired.change_seq_at,
        paired.loaded_at,
        image.*
    from paired
    lateral view inline(filter(
        array(
            {# the change's own image: I, U, D, or T without key and values #}
            {{ qlik_ct_image_struct(
                columns, 'paired.',
                "case when paired.is_truncate then 'T' else paired.change_oper end",
                'paired.pk_string', 'false',
                "not paired.is_truncate and paired.change_oper != 'D'",
                'paired.is_truncate'
            ) }},
            {# K: a U that changed the key ends the old key with its before-image #}
            case
                when paired.before_pk_string != paired.pk_string
                    then {{ qlik_ct_image_struct(
                        columns, 'paired.before__', "'K'", 'paired.before_pk_string',
                        'false', 'false', 'false'
                    ) }}
            end,
            {# B: the before-image of a U, at the same order_key #}
            case
                when paired.before_pk_string is not null
                    then {{ qlik_ct_image_struct(
                        columns, 'paired.before__', "'B'", 'paired.before_pk_string',
                        'true', 'true', 'false'
                    ) }}
            end
        ),
        unfolded_image -> unfolded_image is not null
    )) image

),

change_images as (

    select
        sha2(concat_ws(
            '|', 'qlik_ct', {{ sql_string_literal(order_scope) }},
            unfolded.order_key, '0'
        ), 256) as change_id,
        unfolded.order_key,
        unfolded.change_seq_at as effective_at,
        unfolded.* except (order_key, change_seq_at, loaded_at),
        unfolded.loaded_at
    from unfolded

),

snapshot_images as (

    {# the full load: the image before the first change, as snapshot inserts #}
    select
        sha2(concat_ws(
            '|', 'qlik_ct', {{ sql_string_literal(order_scope) }},
            '{{ snapshot_order_key }}', keyed_baseline.pk_string
        ), 256) as change_id,
        '{{ snapshot_order_key }}' as order_key,
        cast(null as timestamp) as effective_at,
        'I' as image_oper,
        keyed_baseline.pk_string,
        false as is_before_image,
        true as row_exists,
        {%- for name in names %}
        keyed_baseline.{{ name }},
        {%- endfor %}
        true as image_complete,
        {{ sql_string_array(names) }} as present_columns,
        cast(null as timestamp) as loaded_at
    from (
        select
            {{ cdc_pk_string_of_row(table_name, columns, 'full_load') }}
                as pk_string,
            full_load.*
        from {{ ref('stg_qlik_ct__' ~ table_name ~ '_baseline') }} as full_load
        where full_load.is_valid
    ) as keyed_baseline

),

images as (

    select * from change_images
    union all
    select * from snapshot_images

)

select
    images.change_id,
    'qlik_ct' as source_system,
    {{ sql_string_literal(table_name) }} as source_table,
    {{ sql_string_literal(order_scope) }} as order_scope,
    images.order_key,
    images.effective_at,
    images.pk_string,
    images.image_oper,
    images.is_before_image,
    images.row_exists,
    {%- for name in names %}
    images.{{ name }},
    {%- endfor %}
    images.image_complete,
    images.present_columns,
    images.loaded_at
from images
{%- endmacro %}
