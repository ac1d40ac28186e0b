{#- Where the toyfeed log stands transaction-consistent: every change (the feed marks no
    transactions; registered with transactions_marked false). -#}
{{ cdc_history.cdc_transaction_boundaries('toyfeed') }}
