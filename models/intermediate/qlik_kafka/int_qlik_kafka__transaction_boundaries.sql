{{
    config(
        enabled=cdc_source_system_enabled('qlik_kafka'),
        materialized='table'
    )
}}
{#- The changes of the qlik_kafka canonical log at which its order scope
    stands transaction-consistent (cdc_transaction_boundaries): what the
    tables' <table>_as_of_consistent functions read. A table, rebuilt when
    the log changes. #}
{{ cdc_transaction_boundaries('qlik_kafka') }}
