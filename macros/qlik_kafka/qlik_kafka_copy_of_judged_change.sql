{% macro qlik_kafka_copy_of_judged_change(message, judged) %}
    {#- The join condition that makes a message (alias `message`: source_table, operation,
        change_seq, message_at) a copy of a CDC change judged before at that change's place
        (alias `judged`: source_table, change_identity, message_at): the same table,
        operation and changeSequence, at the same message time. qlik_kafka_judgement_plan
        checks new messages by it and int_qlik_kafka__message_copies_judged places them by
        it, so the two agree. -#}
    {{- return(message ~ '.source_table <=> ' ~ judged ~ '.source_table'
        ~ ' and ' ~ message ~ ".operation != 'REFRESH'"
        ~ ' and concat(' ~ message ~ ".operation, '|', " ~ message ~ '.change_seq) = '
        ~ judged ~ '.change_identity'
        ~ ' and ' ~ message ~ '.message_at = ' ~ judged ~ '.message_at') -}}
{% endmacro %}
