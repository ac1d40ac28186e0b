{% macro goldengate_segment_counts_before(relation, counted) %}
    {#- A query of one row per trail segment of `relation` (trail_seqno, trail_segment;
        goldengate_trail_segment) with counted_before: the sum of the 0/1 column `counted`
        over every earlier segment in trail order. Added to the same sum taken within a
        segment (partition by trail_seqno, trail_segment, order by trail_rba) it gives the
        running count over the whole trail, with no window over every row in one partition:
        chunk chains and transactions are numbered so. -#}
    select
        segment_totals.trail_seqno,
        segment_totals.trail_segment,
        coalesce(sum(segment_totals.counted) over (
            order by segment_totals.trail_seqno, segment_totals.trail_segment
            rows between unbounded preceding and 1 preceding
        ), 0) as counted_before
    from (
        select
            {{ relation }}.trail_seqno,
            {{ relation }}.trail_segment,
            sum({{ relation }}.{{ counted }}) as counted
        from {{ relation }}
        group by 1, 2
    ) as segment_totals
{%- endmacro %}
