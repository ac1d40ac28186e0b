{% macro cdc_consistent_point(table_name, point) %}
    {#- A query of one row, one column `point`: the order_key of the newest transaction
        boundary at or before `point` that no incomplete transaction precedes, in the
        table's order scope (every table of the same source instance, so a transaction
        that spans tables is cut the same way in each). Read from the format's
        int_<sys>__transaction_boundaries (cdc_transaction_boundaries says what a boundary
        is); '0' when no boundary qualifies (before every change). A query, not a scalar
        subquery: Spark resolves a SQL function's parameters in the body's CTEs but not
        inside subquery expressions. -#}
    {%- set system = cdc_history.cdc_table_config(table_name).source_system -%}
    {%- set boundaries = ref('int_' ~ system ~ '__transaction_boundaries') -%}
    {%- set images = ref('int_' ~ table_name ~ '__change_images') -%}
        select coalesce(max(boundary.order_key), '0') as point
        from {{ boundaries }} as boundary
        where
            boundary.order_scope in (
                select table_images.order_scope from {{ images }} as table_images
            )
            and {{ cdc_history.cdc_point_filter('boundary', point) }}
{%- endmacro %}
