{{ config(materialized='view') }}
{#- One row per (change, image): the Qlik-style "before-image row" layout of the
    change log (spec F.1 companion view), which the point-in-time macros join
    (seed 000 pattern). #}

with

changes as (

    select * from {{ ref('fct_cdc_changes') }}

),

after_images as (

    {# I and U: the row as it stands after the change #}
    select
        changes.change_id,
        changes.source_system,
        changes.source_table,
        changes.order_scope,
        changes.order_key,
        changes.effective_at,
        changes.pk_string,
        changes.op as image_oper,
        false as is_before_image,
        true as row_exists,
        changes.after_image as image,
        changes.image_complete
    from changes
    where changes.op in ('I', 'U')

),

deletes as (

    {# D: the key stops existing; the image is the deleted row #}
    select
        changes.change_id,
        changes.source_system,
        changes.source_table,
        changes.order_scope,
        changes.order_key,
        changes.effective_at,
        changes.pk_string,
        changes.op as image_oper,
        false as is_before_image,
        false as row_exists,
        changes.before_image as image,
        changes.image_complete
    from changes
    where changes.op = 'D'

),

keys_moved_away as (

    {# a U that changed the key: the old key stops existing at that change #}
    select
        changes.change_id,
        changes.source_system,
        changes.source_table,
        changes.order_scope,
        changes.order_key,
        changes.effective_at,
        {{ cdc_pk_string_of_map('changes.pk_before') }} as pk_string,
        'K' as image_oper,
        false as is_before_image,
        false as row_exists,
        changes.before_image as image,
        changes.image_complete
    from changes
    where changes.op = 'U' and changes.pk_changed

),

truncates as (

    {# TRUNCATE: every key of the table stops existing (no key of its own) #}
    select
        changes.change_id,
        changes.source_system,
        changes.source_table,
        changes.order_scope,
        changes.order_key,
        changes.effective_at,
        cast(null as string) as pk_string,
        'T' as image_oper,
        false as is_before_image,
        false as row_exists,
        cast(null as map<string, string>) as image,  -- noqa: LT01
        false as image_complete
    from changes
    where changes.control_op = 'TRUNCATE'

),

before_images as (

    {# U with a before-image: the B row, at the same order_key as its U #}
    select
        changes.change_id,
        changes.source_system,
        changes.source_table,
        changes.order_scope,
        changes.order_key,
        changes.effective_at,
        coalesce(
            {{ cdc_pk_string_of_map('changes.pk_before') }}, changes.pk_string
        ) as pk_string,
        'B' as image_oper,
        true as is_before_image,
        true as row_exists,
        changes.before_image as image,
        changes.image_complete
    from changes
    where changes.op = 'U' and changes.before_image is not null

),

unioned as (

    select * from after_images
    union all
    select * from deletes
    union all
    select * from keys_moved_away
    union all
    select * from truncates
    union all
    select * from before_images

)

select * from unioned
