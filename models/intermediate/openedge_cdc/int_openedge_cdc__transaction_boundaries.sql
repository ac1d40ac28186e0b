{{
    config(
        enabled=cdc_source_system_enabled('openedge_cdc'),
        materialized='table'
    )
}}
{#- The changes of the openedge_cdc canonical log at which its order scope
    stands transaction-consistent (cdc_transaction_boundaries): what the
    tables' <table>_as_of_consistent functions read. A table, rebuilt when
    the log changes. #}
{{ cdc_transaction_boundaries('openedge_cdc') }}
