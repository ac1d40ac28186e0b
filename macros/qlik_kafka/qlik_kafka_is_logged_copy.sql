{% macro qlik_kafka_is_logged_copy(message) %}
    {#- Whether a judged message (alias `message`: duplicate_status, copy_number) is the
        copy of its change that the log holds: its first copy, when the change is not
        conflicting (exact copies collapse onto it; a late conflicting copy is never
        first). int_qlik_kafka__changes_canonical logs by it and
        int_qlik_kafka__transaction_boundaries reads the same changes by it. -#}
    {{- return(message ~ ".duplicate_status in ('first', 'exact_copy') and "
        ~ message ~ '.copy_number = 1') -}}
{% endmacro %}
