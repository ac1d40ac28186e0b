{% macro goldengate_order_segment(relation) %}
    {#- The order segment of a GoldenGate change of `relation` for cdc_running_max: its
        order_key (lpad(seqno, 10) || lpad(rba, 20), both forms) without its last seven
        digits, so a segment is one trail file's (or one JSON seqno's) records in steps of
        10,000,000 bytes of rba, and segments sort as the records do. -#}
    substring({{ relation }}.order_key, 1, 23)
{%- endmacro %}
