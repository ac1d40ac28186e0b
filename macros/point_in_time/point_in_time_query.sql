{% macro point_in_time_query(table_name, point, columns=none, point_query=none) %}
    {#- Each key's row of `table_name` as it stood at `point` (see cdc_point_filter), with
        its previous image, by the before-image left outer join of seed 000 on the table's
        typed images (int_<table>__change_images): the left side scans the images up to the
        point, before-images excluded, and keeps each key's latest; the right side joins the
        before-image ('B') of that same change. Keys whose latest image is a delete, a key
        move or precedes a TRUNCATE are absent. Only the images after the last TRUNCATE are
        read, and a row shows the key's merged state at its latest image (cdc_state_images),
        so columns an image lacks are carried forward. With point_query (a query of one row
        whose column `point` is the point, e.g. cdc_consistent_point), the point is that
        row's, and `point` must be 'point_query.point'. -#}
    {%- if point is none or point == '' -%}
        {{ exceptions.raise_compiler_error("point_in_time_query: point is required") }}
    {%- endif -%}
    {%- set columns = columns or cdc_table_columns(table_name) %}
with
{%- if point_query %}

point_query as (

    {{ point_query }}

),
{%- endif %}

images as (

    select *
    from {{ ref('int_' ~ table_name ~ '__change_images') }}

),

up_to_point as (

    select images.*
    from images
    {%- if point_query %}
    cross join point_query
    {%- endif %}
    where not images.is_before_image and {{ cdc_point_filter('images', point) }}

),

{{ cdc_latest_states(table_name, 'up_to_point', columns) }}

standing as (

    select ranked.*
    from ranked
    where ranked.recency = 1 and ranked.row_exists

),

with_previous as (

    select
        standing.*,
        {{ cdc_image_map(columns, 'before_images') }} as previous_image,
        before_images.change_id is not null as has_previous_image
    from standing
    left join images as before_images
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
