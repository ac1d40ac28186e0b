{% macro qlik_kafka_order_key(message) %}
    {#- The canonical order_key of a first copy (alias `message`: operation,
        change_seq, is_reload, refresh_batch_at): a CDC message's changeSequence,
        the baseline REFRESH rows' 35 zeros, a reload's rows at its batch's time
        with change number 1 (its TRUNCATE takes 0: qlik_kafka_reload_order_key).
        int_qlik_kafka__changes_canonical and int_qlik_kafka__transaction_boundaries
        order by it, so the two agree. -#}
    {{- return(
        'case when ' ~ message ~ ".operation != 'REFRESH' then " ~ message ~ '.change_seq'
        ~ ' when not ' ~ message ~ ".is_reload then repeat('0', 35)"
        ~ ' else ' ~ cdc_history.qlik_kafka_reload_order_key(message ~ '.refresh_batch_at', 1)
        ~ ' end') -}}
{% endmacro %}
