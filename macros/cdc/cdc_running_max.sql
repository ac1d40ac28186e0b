{% macro cdc_running_max(relation, value, scope, segment, order_by, name='running_max') %}
    {#- A query of every row of `relation` (a CTE or table) with a column `name`: the largest
        `value` (an expression over its columns, written with the alias scoped; NULLs
        ignored) over the rows of the same `scope` (a list of columns) up to and including
        this one in `order_by` order (a column), NULL while there is none: a running
        maximum, as max(value) over (partition by scope order by order_by rows between
        unbounded preceding and current row) gives it, but with no task holding a whole
        scope. Two passes: the running maximum within each segment of the scope
        (`segment`, an expression over the row's columns, written with the alias scoped,
        that never decreases in `order_by` order), and the largest value of the earlier
        segments, taken from one row per segment (only these summaries are ordered over a
        whole scope). The segments change how the work spreads, never the result.
        `relation` is read twice: give it a table or a CTE over one. -#}
    {%- set scope_columns = scope | join(', ') -%}
    select
        segmented.* except (order_segment, running_value),
        greatest(
            segment_max_before.max_before,
            max(segmented.running_value) over (
                partition by
                    {%- for column in scope %} segmented.{{ column }},{% endfor %}
                    segmented.order_segment
                order by segmented.{{ order_by }}
                rows between unbounded preceding and current row
            )
        ) as {{ name }}
    from (
        select
            scoped.*,
            {{ segment }} as order_segment,
            {{ value }} as running_value
        from {{ relation }} as scoped
    ) as segmented
    inner join (
        select
            {{ scope_columns }},
            order_segment,
            max(segment_max) over (
                partition by {{ scope_columns }}
                order by order_segment
                rows between unbounded preceding and 1 preceding
            ) as max_before
        from (
            select
                {%- for column in scope %}
                scoped.{{ column }},
                {%- endfor %}
                {{ segment }} as order_segment,
                max({{ value }}) as segment_max
            from {{ relation }} as scoped
            group by {{ scope_columns }}, order_segment
        ) as segment_maxima
    ) as segment_max_before
        on
            {%- for column in scope %}
            segmented.{{ column }} <=> segment_max_before.{{ column }} and
            {%- endfor %}
            segmented.order_segment <=> segment_max_before.order_segment
{%- endmacro %}
