{#- Where the goldengate log stands transaction-consistent: what the tables'
    <table>_as_of_consistent functions read (cdc_transaction_boundaries). #}
{{ cdc_transaction_boundaries('goldengate') }}
