{% macro goldengate_trail_files_filter(plan, relation) %}
    {#- The rows of `relation` (with trail_seqno) that a write planned by
        goldengate_trail_files_to_write computes: every row for a whole write, else those
        of the files from the plan's from_file on and those with no trail file. -#}
    {%- if plan.whole -%}
        true
    {%- elif plan.from_file is none -%}
        {{ relation }}.trail_seqno is null
    {%- else -%}
        ({{ relation }}.trail_seqno >= {{ plan.from_file | int }}
        or {{ relation }}.trail_seqno is null)
    {%- endif -%}
{%- endmacro %}
