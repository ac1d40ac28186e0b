{% macro qlik_kafka_transactions(first_copies) %}
    {#- The select of one row per transaction of the first copies (relation or CTE
        `first_copies`: transaction_id, transaction_event_counter,
        is_transaction_last_event, operation, change_seq): its last event's
        counter (NULL until transactionLastEvent arrives), how many of its events
        arrived, and its first CDC message's changeSequence. A transaction is
        complete when its last event and as many events as that counter arrived
        (qlik_kafka_transaction_complete); a CDC message with no transaction or in
        one not complete is flagged transaction_incomplete (spec B.7, F.3).
        int_qlik_kafka__changes_canonical flags by it and
        int_qlik_kafka__transaction_boundaries cuts by it, so the two agree. -#}
    select
        {{ first_copies }}.transaction_id,
        max(
            case
                when {{ first_copies }}.is_transaction_last_event
                    then coalesce({{ first_copies }}.transaction_event_counter, 0)
            end
        ) as last_event_counter,
        count(distinct {{ first_copies }}.transaction_event_counter)
            as events_arrived,
        min(
            case
                when {{ first_copies }}.operation != 'REFRESH'
                    then {{ first_copies }}.change_seq
            end
        ) as first_change_seq
    from {{ first_copies }}
    where {{ first_copies }}.transaction_id is not null
    group by 1
{%- endmacro %}
