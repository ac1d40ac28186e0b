{% macro goldengate_trail_segment(relation) %}
    {#- The trail segment of a record of `relation`: its trail_rba in 16 MiB steps, within
        its trail file (trail_seqno). The steps in trail order run per segment (partition
        by trail_seqno, trail_segment, order by trail_rba) and take what crosses a segment
        boundary (the record before, a running count) from a summary of one row per
        segment, so no step moves a whole trail into one task; only those summaries are
        ordered over the whole trail. The size changes how work spreads, never a result. -#}
    {{ relation }}.trail_rba div 16777216
{%- endmacro %}
