{{ config(materialized='view') }}
{#- One row per (change, image): the Qlik-style "before-image row" layout of the
    change log (spec F.1 companion view), which the point-in-time macros join
    (seed 000 pattern). present_columns says which columns an image carries: the
    change's present_columns for I, U and D images; the before image's own keys
    for K and B images (the log's present_columns describes the after image of
    a U); NULL for T. #}

with

changes as (

    select * from {{ ref('fct_cdc_changes') }}

),

after_images as (

    {# I and U: the row as it stands after the change #}
    select
        {{ cdc_change_image_columns(
            'changes.pk_string', 'changes.op', 'false', 'true', 'changes.after_image'
        ) }}
    from changes
    where changes.op in ('I', 'U')

),

deletes as (

    {# D: the key stops existing; the image is the deleted row #}
    select
        {{ cdc_change_image_columns(
            'changes.pk_string', 'changes.op', 'false', 'false', 'changes.before_image'
        ) }}
    from changes
    where changes.op = 'D'

),

keys_moved_away as (

    {# a U that changed the key: the old key stops existing at that change #}
    select
        {{ cdc_change_image_columns(
            cdc_pk_string_of_map('changes.pk_before'), "'K'", 'false', 'false',
            'changes.before_image',
            present_columns='map_keys(changes.before_image)'
        ) }}
    from changes
    where changes.op = 'U' and changes.pk_changed

),

truncates as (

    {# TRUNCATE: every key of the table stops existing (no key of its own) #}
    select
        {{ cdc_change_image_columns(
            'cast(null as string)', "'T'", 'false', 'false',
            'cast(null as map<string, string>)', image_complete='false',
            present_columns='cast(null as array<string>)'
        ) }}
    from changes
    where changes.control_op = 'TRUNCATE'

),

before_images as (

    {# U with a before-image: the B row, at the same order_key as its U #}
    select
        {{ cdc_change_image_columns(
            'coalesce(' ~ cdc_pk_string_of_map('changes.pk_before')
            ~ ', changes.pk_string)',
            "'B'", 'true', 'true', 'changes.before_image',
            present_columns='map_keys(changes.before_image)'
        ) }}
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
