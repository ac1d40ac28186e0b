{% macro qlik_kafka_effective_at(message) %}
    {#- The canonical effective_at of a first copy (alias `message`: operation,
        change_seq_at, is_reload, refresh_batch_at): a CDC message's changeSequence
        time, a reload row's batch time, NULL for the baseline REFRESH rows. -#}
    {{- return(
        'case when ' ~ message ~ ".operation != 'REFRESH' then " ~ message ~ '.change_seq_at'
        ~ ' when ' ~ message ~ '.is_reload then ' ~ message ~ '.refresh_batch_at end') -}}
{% endmacro %}
