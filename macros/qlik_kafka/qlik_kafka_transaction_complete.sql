{% macro qlik_kafka_transaction_complete(transactions) %}
    {#- Whether a transaction (alias `transactions`: a row of qlik_kafka_transactions,
        NULL columns for a message with no transaction) is complete: its last event
        arrived, and as many events as that event's counter. -#}
    {{- return(transactions ~ '.last_event_counter is not null and '
        ~ transactions ~ '.events_arrived >= ' ~ transactions ~ '.last_event_counter') -}}
{% endmacro %}
