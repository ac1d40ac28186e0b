{% macro point_in_time_known_query(table_name, point, known_at, columns=none) %}
    {#- The rows point_in_time_query gives, as the warehouse knew the table at system time
        `known_at` (a SQL string expression: a timestamp, or 'latest' for everything
        known now), from the record of a bitemporal table (int_<table>__history_known):
        the versions of dim_<table>_history known then (each fact's newest row at or
        before known_at, where it is known), and of each key the one valid at `point`
        (cdc_point_filter on its start: valid_from_order_key, valid_from), unless it is a
        deleted version. Its values are the version's: with history options that absorb
        changes in place, the version's latest state. last_op, last_order_key,
        last_changed_at and last_change_id are the change that opened the version;
        previous_image that change's before-image, where the images hold it. A known_at
        that is neither 'latest' nor a time stops the query, naming the value. -#}
    {%- set columns = columns or cdc_table_columns(table_name) %}
with

known_facts as (

    select max_by(struct(known.*), known.known_at) as latest
    from {{ ref('int_' ~ table_name ~ '__history_known') }} as known
    where
        {{ known_at }} = 'latest'
        or known.known_at <= coalesce(
            case
                when {{ known_at }} rlike {{ sql_string_literal(cdc_timestamp_pattern()) }}
                    then try_cast({{ known_at }} as timestamp)
            end,
            raise_error(concat(
                {{ sql_string_literal(table_name ~ '_as_of: known_at must be latest or a'
                    ~ ' timestamp, got ') }},
                coalesce({{ known_at }}, 'NULL')
            ))
        )
    group by known.pk_string, known.version_hash

),

versions as (

    select
        known_facts.latest.*,
        known_facts.latest.valid_from_order_key as order_key,
        known_facts.latest.valid_from as effective_at
    from known_facts
    where known_facts.latest.is_known

),

ranked as (

    select
        versions.*,
        row_number() over (
            partition by versions.pk_string
            order by versions.order_key desc, versions.is_deleted asc
        ) as recency
    from versions
    where {{ cdc_point_filter('versions', point) }}

),

standing as (

    select ranked.*
    from ranked
    where ranked.recency = 1 and not ranked.is_deleted

),

with_previous as (

    select
        standing.*,
        {{ cdc_image_map(columns, 'before_images') }} as previous_image,
        before_images.change_id is not null as has_previous_image
    from standing
    left join {{ ref('int_' ~ table_name ~ '__change_images') }} as before_images
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
    with_previous.change_op as last_op,
    with_previous.order_key as last_order_key,
    with_previous.effective_at as last_changed_at,
    with_previous.change_id as last_change_id,
    case
        when with_previous.has_previous_image then with_previous.previous_image
    end as previous_image
from with_previous
{%- endmacro %}
