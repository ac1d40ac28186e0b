{{ config(materialized='view') }}
{#- One row per (change, image): the Qlik-style "before-image row" layout of the
    change log (spec F.1 companion view), which the point-in-time macros join
    (seed 000 pattern). The images of a change and what each carries are
    cdc_log_image_kinds, which the typed int_<table>__change_images of the
    formats that log first unfold by too, in the same one pass over the log
    (cdc_log_images_lateral_view): a union of one select per kind read the log
    once per kind, and Spark analysed the log's views once per reader. #}

with

changes as (

    select * from {{ ref('fct_cdc_changes') }}

),

unfolded as (

    select
        changes.change_id,
        changes.source_system,
        changes.source_table,
        changes.order_scope,
        changes.order_key,
        changes.effective_at,
        image.*,
        changes.loaded_at
    from changes
        {{ cdc_log_images_lateral_view('changes', none) }}

)

select
    unfolded.change_id,
    unfolded.source_system,
    unfolded.source_table,
    unfolded.order_scope,
    unfolded.order_key,
    unfolded.effective_at,
    unfolded.pk_string,
    unfolded.image_oper,
    -- every image sets both: coalesce only declares them NOT NULL
    coalesce(unfolded.is_before_image, false) as is_before_image,
    coalesce(unfolded.row_exists, false) as row_exists,
    unfolded.image,
    unfolded.image_complete,
    unfolded.present_columns,
    unfolded.loaded_at
from unfolded
