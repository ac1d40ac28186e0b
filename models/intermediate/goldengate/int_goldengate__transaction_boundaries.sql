{{
    config(
        enabled=cdc_source_system_enabled('goldengate'),
        materialized='table'
    )
}}
{#- The changes of the goldengate canonical log at which its order scope
    stands transaction-consistent (cdc_transaction_boundaries): what the
    tables' <table>_as_of_consistent functions read. A table, rebuilt when
    the log changes. #}
{{ cdc_transaction_boundaries('goldengate') }}
