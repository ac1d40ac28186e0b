{{ config(
    materialized='table',
    post_hook=["{{ cdc_write_later_batches() }}"]
) }}
{#- One row per landed record that was kept out of the change log, from every
    enabled source system, with the reason: the union of their
    int_<source_system>__rows_quarantined models (for a format with many tables,
    its members: a table each, cdc_quarantine_members) through the one column
    list (cdc_quarantine_columns). A table rebuilt on every run (its tests and
    readers scan it, not the formats' view chains each time), so a row leaves it
    in the run that lands its fix. quarantine_id hashes what identifies the
    record, its reason, and its occurrence among identical ones
    (cdc_quarantine_rows). At most cdc_tables_per_statement() members a
    statement: this one writes the first batch, the post-hook
    cdc_write_later_batches inserts the others, so no statement plans every
    table's view at once. #}
{%- set batches = cdc_table_batches(cdc_quarantine_members()) -%}
{%- set later = [] -%}
{%- for batch in batches[1:] -%}
    {%- do later.append(cdc_quarantine_rows(batch)) -%}
{%- endfor -%}
{%- do cdc_remember_later_batches(later) %}

{{ cdc_quarantine_rows(batches[0]) }}
