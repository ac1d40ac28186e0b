{% macro point_in_time_known_query(table_name, point, known_at, columns=none) %}
    {#- The rows point_in_time_query gives, as the warehouse knew the table at system time
        `known_at` (a SQL string expression: a timestamp, or 'latest' for everything
        known now): of the version rows dim_<table>_history_bitemporal held known then
        (known_from at or before it, known_to after it or NULL), each key's one valid at
        `point` (cdc_point_filter on its start: valid_from_order_key, valid_from), unless it
        is a deleted version. Its values are the version's: with history options that
        absorb changes in place, the version's latest state. last_op, last_order_key,
        last_changed_at and last_change_id are the change that opened the version;
        previous_image that change's before-image, where the images hold it
        (point_in_time_rows). A known_at that is neither 'latest' nor a time stops the
        query, naming the value. -#}
    {%- set columns = columns or cdc_history.cdc_table_columns(table_name) %}
with

versions as (

    {# a version in the image layout: its start as order_key and effective_at #}
    select
        known.*,
        known.valid_from_order_key as order_key,
        known.valid_from as effective_at,
        known.change_op as image_oper
    from {{ ref('dim_' ~ table_name ~ '_history_bitemporal') }} as known
    where
        case
            when {{ known_at }} = 'latest' then known.is_known_now
            else
                known.known_from <= {{ cdc_history.cdc_checked_time(
                    known_at, table_name ~ '_as_of: known_at must be latest or a timestamp, got ')
                }}
                and coalesce(known.known_to > try_cast({{ known_at }} as timestamp), true)
        end

),

ranked as (

    select
        versions.*,
        row_number() over (
            partition by versions.pk_string
            order by versions.order_key desc, versions.is_deleted asc
        ) as recency
    from versions
    where {{ cdc_history.cdc_point_filter('versions', point) }}

),

standing as (

    select ranked.*
    from ranked
    where ranked.recency = 1 and not ranked.is_deleted

),

{{ cdc_history.point_in_time_rows(columns, ref('int_' ~ table_name ~ '__change_images')) }}
{%- endmacro %}
