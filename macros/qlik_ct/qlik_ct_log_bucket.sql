{% macro qlik_ct_log_bucket(order_key) %}
    {#- The partition of int_qlik_ct__changes_logged that holds a change: the first
        var('history_bucket_length') characters of its order key (change_seq), 8 by default,
        the commit day YYYYMMDD, as the histories' buckets; so a run rewrites the days it
        staged rows for, not a table's whole log. The full-load rows (order key 000...0)
        have a bucket of zeros. A before-image shares its update's change_seq, so a late
        one falls in its update's bucket. -#}
    substr({{ order_key }}, 1, {{ cdc_history.cdc_var('history_bucket_length', 8) | int }})
{%- endmacro %}
