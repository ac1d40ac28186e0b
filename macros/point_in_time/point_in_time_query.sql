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
    {%- set columns = columns or cdc_history.cdc_table_columns(table_name) %}
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
    where not images.is_before_image and {{ cdc_history.cdc_point_filter('images', point) }}

),

{{ cdc_history.cdc_latest_states(table_name, 'up_to_point', columns) }}

standing as (

    select ranked.*
    from ranked
    where ranked.recency = 1 and ranked.row_exists

),

{{ cdc_history.point_in_time_rows(columns, 'images') }}
{%- endmacro %}
