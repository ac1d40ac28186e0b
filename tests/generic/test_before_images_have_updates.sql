{% test before_images_have_updates(model) %}
{#- Every valid before-image (B) has a valid update (U) at the same change_seq (seed 000).
    Orphans are quarantined; as a warning this shows how many wait for their U. -#}
with

orphan_before_images as (

    select before_images.*
    from {{ model }} as before_images
    left anti join {{ model }} as update_images
        on
            before_images.order_key = update_images.order_key
            and update_images.change_oper = 'U'
            and update_images.is_valid
    where before_images.change_oper = 'B' and before_images.is_valid

)

select * from orphan_before_images
{% endtest %}
