{% macro change_query(table_name, from_point, to_point, net=false, columns=none) %}
    {#- The changes of `table_name` after `from_point` and at or before `to_point` (SQL string
        expressions read as cdc_point_filter reads them; from_point none: from the first
        change, the full load included), read from dim_<table>_history, so every format
        feeds it and each image is the key's merged state (spec F.5). The window is half
        open, (from_point, to_point]: the changes that take <table>_as_of(from_point) to
        <table>_as_of(to_point), so consecutive windows tile.

        One row per image, as Delta's table_changes shows them (change_type):
        - 'insert': a key that had no live row gets one (the row after);
        - 'update_preimage' and 'update_postimage': a live row changed (the row before and
          the row after, both with the change's columns); a key move (spec F.5 step 2) is
          one update whose pre-image holds the old key and whose post-image the new one,
          sharing change_id;
        - 'delete': a live row removed by a delete (D) or a TRUNCATE (T): the row as it
          stood before.
        A delete of a key that had no live row, and a repeated delete, give no row.

        With net (Iceberg's net_changes), one result per key touched in the window, comparing
        its row at from_point with its row at to_point: 'insert' (none before, one after),
        'delete' (the row before), 'update_preimage' + 'update_postimage', or nothing when
        both are absent (an insert then a delete) or equal in every data column (a delete
        and an identical re-insert, an update undone: carry-over removed). The change
        columns are those of the key's last change in the window.

        A point that is not 'latest', digits or a time raises an error naming the function
        and the argument, checked once on a probe row, so even an empty window refuses it. -#}
    {%- if to_point is none or to_point == '' -%}
        {{ exceptions.raise_compiler_error("change_query: to_point is required") }}
    {%- endif -%}
    {%- set columns = columns or cdc_history.cdc_table_columns(table_name) -%}
    {%- set subject = table_name ~ ('_net_changes' if net else '_changes') %}
with

points_checked as (

    {# a probe row every valid point admits; the final guard reads it, so a bad point
       raises even when the window is empty (Spark prunes a window it can prove empty,
       e.g. from 'latest', and never evaluates its filter) #}
    select
        {%- if from_point is not none %}
        {{ cdc_history.cdc_point_filter('probe', from_point, subject ~ ': from_point') }}
            as from_point_ok,
        {%- else %}
        true as from_point_ok,
        {%- endif %}
        {{ cdc_history.cdc_point_filter('probe', to_point, subject ~ ': to_point') }}
            as to_point_ok
    from (
        select
            '0' as order_key,
            cast(null as timestamp) as effective_at
    ) as probe

),

history as (

    select *
    from {{ ref('dim_' ~ table_name ~ '_history') }}

),

versions as (

    {# each version with the key's row just before it (NULL for its first version) #}
    select
        history.*,
        history.valid_from_order_key as order_key,
        history.valid_from as effective_at,
        lag(named_struct(
            'is_live', not history.is_deleted,
            'image', named_struct(
                {%- for column in columns %}
                {{ cdc_history.sql_string_literal(column.name) }}, history.{{ column.name }}
                {{- ',' if not loop.last }}
                {%- endfor %}
            )
        )) over (
            partition by history.pk_string
            order by history.valid_from_order_key
        ) as previous
    from history

),

in_window as (

    select versions.*
    from versions
    where
        {{ cdc_history.cdc_point_filter('versions', to_point, subject ~ ': to_point') }}
        {%- if from_point is not none %}
        and not (
            {{ cdc_history.cdc_point_filter('versions', from_point, subject ~ ': from_point') }}
        )
        {%- endif %}

),
{%- if not net %}

key_moves as (

    {# the old key's side of a key-changing update (its K version) #}
    select distinct
        in_window.change_id,
        in_window.order_key
    from in_window
    where in_window.change_op = 'K' and in_window.previous.is_live

),

classified as (

    select
        in_window.*,
        coalesce(in_window.previous.is_live, false) as had_row,
        key_moves.change_id is not null as is_key_move_target
    from in_window
    left join key_moves
        on
            in_window.change_id = key_moves.change_id
            and in_window.order_key = key_moves.order_key
            and in_window.change_op = 'U'

),

change_rows as (

    {# the row before the change: a deleted row or an update's pre-image (a key move's
       comes from the old key's K version) #}
    select
        classified.pk_string,
        {%- for column in columns %}
        classified.previous.image.{{ column.name }} as {{ column.name }},
        {%- endfor %}
        case
            when classified.is_deleted and classified.change_op != 'K'
                then 'delete'
            else 'update_preimage'
        end as change_type,
        classified.change_op,
        classified.order_key,
        classified.effective_at as changed_at,
        classified.change_id,
        classified.order_scope
    from classified
    where classified.had_row and not classified.is_key_move_target
    union all
    {# the row after it #}
    select
        classified.pk_string,
        {%- for column in columns %}
        classified.{{ column.name }},
        {%- endfor %}
        case
            when classified.had_row or classified.is_key_move_target
                then 'update_postimage'
            else 'insert'
        end as change_type,
        classified.change_op,
        classified.order_key,
        classified.effective_at as changed_at,
        classified.change_id,
        classified.order_scope
    from classified
    where not classified.is_deleted

)
{%- else %}

per_key as (

    {# each touched key's row before its first change in the window and after its last #}
    select
        in_window.pk_string,
        min_by(in_window.previous, in_window.order_key) as first_previous,
        max_by(named_struct(
            'is_live', not in_window.is_deleted,
            'image', named_struct(
                {%- for column in columns %}
                {{ cdc_history.sql_string_literal(column.name) }}, in_window.{{ column.name }}
                {{- ',' if not loop.last }}
                {%- endfor %}
            ),
            'change_op', in_window.change_op,
            'order_key', in_window.order_key,
            'changed_at', in_window.effective_at,
            'change_id', in_window.change_id,
            'order_scope', in_window.order_scope
        ), in_window.order_key) as last_state
    from in_window
    group by in_window.pk_string

),

compared as (

    select
        per_key.pk_string,
        per_key.last_state,
        case
            when per_key.first_previous.is_live
                then per_key.first_previous.image
        end as image_before,
        case
            when per_key.last_state.is_live then per_key.last_state.image
        end as image_after
    from per_key

),

net_effect as (

    {# carry-over removed: equal rows before and after (or none) are no change #}
    select *
    from compared
    where not (compared.image_before <=> compared.image_after)

),

change_rows as (

    select
        net_effect.pk_string,
        {%- for column in columns %}
        net_effect.image_before.{{ column.name }} as {{ column.name }},
        {%- endfor %}
        case
            when net_effect.image_after is null then 'delete'
            else 'update_preimage'
        end as change_type,
        net_effect.last_state.change_op,
        net_effect.last_state.order_key,
        net_effect.last_state.changed_at,
        net_effect.last_state.change_id,
        net_effect.last_state.order_scope
    from net_effect
    where net_effect.image_before is not null
    union all
    select
        net_effect.pk_string,
        {%- for column in columns %}
        net_effect.image_after.{{ column.name }} as {{ column.name }},
        {%- endfor %}
        case
            when net_effect.image_before is null then 'insert'
            else 'update_postimage'
        end as change_type,
        net_effect.last_state.change_op,
        net_effect.last_state.order_key,
        net_effect.last_state.changed_at,
        net_effect.last_state.change_id,
        net_effect.last_state.order_scope
    from net_effect
    where net_effect.image_after is not null

)
{%- endif %}

select * from change_rows
union all
{# no row: evaluated for its error alone (a valid point makes the filter false) #}
select
    cast(null as string) as pk_string,
    {%- for column in columns %}
    cast(null as {{ column.type }}) as {{ column.name }},
    {%- endfor %}
    cast(null as string) as change_type,
    cast(null as string) as change_op,
    cast(null as string) as order_key,
    cast(null as timestamp) as changed_at,
    cast(null as string) as change_id,
    cast(null as string) as order_scope
from points_checked
where not (points_checked.from_point_ok and points_checked.to_point_ok)
{%- endmacro %}
