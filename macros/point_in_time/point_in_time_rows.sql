{% macro point_in_time_rows(columns, images) %}
    {#- The end of a point-in-time query (point_in_time_query, point_in_time_known_query):
        the CTE `with_previous`, each row of the CTE `standing` (one per key, in the image
        layout: order_key, effective_at, image_oper, change_id and the typed columns) joined
        with its change's before-image ('B') in `images` (seed 000's left outer join), then
        the rows in the columns of <table>_as_of. -#}
with_previous as (

    select
        standing.*,
        {{ cdc_history.cdc_image_map(columns, 'before_images') }} as previous_image,
        before_images.change_id is not null as has_previous_image
    from standing
    left join {{ images }} as before_images
        on
            standing.order_key = before_images.order_key
            and standing.change_id = before_images.change_id
            and before_images.image_oper = 'B'

)

select
    with_previous.pk_string,
    {%- for column in columns %}
    with_previous.{{ column.name }},
    {%- endfor %}
    with_previous.image_oper as last_op,
    with_previous.order_key as last_order_key,
    with_previous.effective_at as last_changed_at,
    with_previous.change_id as last_change_id,
    case
        when with_previous.has_previous_image then with_previous.previous_image
    end as previous_image
from with_previous
{%- endmacro %}
