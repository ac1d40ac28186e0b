{% macro cdc_consistent_point(table_name, point) %}
    {#- A query of one row, one column `point`: the order_key of the newest transaction
        boundary at or before `point` that no incomplete transaction precedes, in the
        table's order scope (every table of the same source instance, so a transaction
        that spans tables is cut the same way in each). A boundary is a logged change that
        ends its transaction (txn_last), or one whose format marks no transaction ends
        (txn_last NULL: snapshot rows, formats without end markers; there every change is
        a boundary and the consistent point is the point itself). An incomplete transaction
        is one whose changes the format flags transaction_incomplete (its last event, or
        one before it, has not landed). '0' when no boundary qualifies (before every
        change). Read from the format's canonical log, int_<sys>__changes_canonical. A query,
        not a scalar subquery: Spark resolves a SQL function's parameters in the body's
        CTEs but not inside subquery expressions. -#}
    {%- set system = cdc_table_config(table_name).source_system -%}
    {%- set log = ref('int_' ~ system ~ '__changes_canonical') -%}
    {%- set images = ref('int_' ~ table_name ~ '__change_images') -%}
        select coalesce(max(boundary.order_key), '0') as point
        from {{ log }} as boundary
        where
            boundary.order_scope in (
                select table_images.order_scope from {{ images }} as table_images
            )
            and coalesce(boundary.txn_last, true)
            and {{ cdc_point_filter('boundary', point) }}
            and boundary.order_key < coalesce(
                (
                    select min(open_change.order_key)
                    from {{ log }} as open_change
                    where
                        array_contains(open_change.flags, 'transaction_incomplete')
                        and open_change.order_scope = boundary.order_scope
                ),
                repeat('9', 64)
            )
{%- endmacro %}
