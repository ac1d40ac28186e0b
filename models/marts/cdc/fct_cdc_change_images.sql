{{ config(materialized='view') }}
{#- One row per (change, image): the Qlik-style "before-image row" layout of the
    change log (spec F.1 companion view), which the point-in-time macros join
    (seed 000 pattern). The images of a change and what each carries are
    cdc_log_image_kinds, which the typed int_<table>__change_images of the
    formats that log first unfold by too. #}

with

changes as (

    select * from {{ ref('fct_cdc_changes') }}

),

unioned as (

    {%- for kind in cdc_log_image_kinds('changes') %}
    select
        {{ cdc_change_image_columns(kind) }}
    from changes
    where {{ kind.when }}
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}

)

select * from unioned
