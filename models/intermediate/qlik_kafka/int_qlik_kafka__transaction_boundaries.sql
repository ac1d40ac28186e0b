{#- Where the qlik_kafka log stands transaction-consistent: what the tables'
    <table>_as_of_consistent functions read (cdc_transaction_boundaries' rows),
    from the copies' judgement alone (qlik_kafka_transaction_boundaries). #}
{{ qlik_kafka_transaction_boundaries() }}
