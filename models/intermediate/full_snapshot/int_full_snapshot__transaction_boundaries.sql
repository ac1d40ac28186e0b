{#- Where the full_snapshot log stands transaction-consistent: what the tables'
    <table>_as_of_consistent functions read (cdc_transaction_boundaries): every
    snapshot (its changes carry no transaction end markers). #}
{{ cdc_transaction_boundaries('full_snapshot') }}
