{{
    config(
        enabled=cdc_source_system_enabled('qlik_ct'),
        materialized='incremental',
        incremental_strategy='insert_overwrite',
        partition_by=['source_table', 'log_bucket'],
        on_schema_change='fail',
        pre_hook=[
            "{{ cdc_write_started() }}",
            "{{ cdc_partition_overwrite_mode('DYNAMIC') }}"
        ],
        post_hook=[
            "{{ cdc_write_later_batches() }}",
            "{{ qlik_ct_record_full_load_digests() }}",
            "{{ cdc_write_finished() }}"
        ]
    )
}}
{#- The Qlik change log as a table (the rows of
    int_qlik_ct__changes_canonical, which puts them in the canonical column
    order), partitioned by source table and commit day (log_bucket,
    qlik_ct_log_bucket): every valid I/U/D change with its before-image folded
    in, TRUNCATE rows as control changes, and the full-load rows as snapshot
    inserts at order_key 000...0 (a bucket of zeros), from the union of the
    tables' pairings (qlik_ct_changes_paired, a CTE a table written here: no
    view node a table to build; qlik_ct_log_rows). At most
    cdc_tables_per_statement() tables a statement (var cdc_tables_per_statement,
    default 25): the model's statement writes the first batch of tables, the
    post-hook cdc_write_later_batches the others, each into its partitions, so no
    statement plans a union that grows with the number of tables.

    Incremental by day: a run rewrites, for each table that staged rows since
    its log was written, the buckets of those rows (qlik_ct_log_buckets_to_write;
    a before-image that lands after its update shares the update's bucket, so
    the update is paired then), and a table's full-load bucket when a full load
    lands that is still the baseline (qlik_ct_full_load_plan;
    qlik_ct_record_full_load_digests records what was logged); it skips when
    there is nothing new (cdc_nothing_new); a first build, a full refresh or
    a write that never finished (cdc_write_started) writes every table whole.
    A full-load folder that changes after a full load with rows was logged is
    a reload, applied as a snapshot (qlik_ct_reload_rows: a TRUNCATE, then its
    rows, flagged reload) in a bucket of its own (reload-<position>), which no
    later write rewrites: the landing no longer holds the load it replaced.
    So a run that stages 1 % more changes rewrites about the days they fall
    in, not the whole log. A table, not a view over every table's pairing:
    what reads the log (fct_cdc_changes, its tests, the change images of the
    log) plans one table, not a union that grew with the number of tables. A
    full refresh takes the folder as it is as the baseline
    (docs/qlik-change-tables.md, "A Qlik reload applied as a snapshot"). -#}
{%- if not execute -%}
    {#- qlik_ct_log_buckets_to_write reads every table's staging at run time, and
        each table written is paired from its staging and its full load -#}
    {%- for table_name in cdc_tables_of('qlik_ct') %}
-- depends_on: {{ ref('stg_qlik_ct__' ~ table_name) }}
-- depends_on: {{ ref('stg_qlik_ct__' ~ table_name ~ '_baseline') }}
    {%- endfor -%}
{%- endif -%}
{#- no table staged or landed since the last write read them: skipped unread
    (cdc_inputs_unchanged) #}
{%- set unchanged = cdc_inputs_unchanged() -%}
{%- set full_load_plan = {} if unchanged else qlik_ct_full_load_plan() -%}
{%- set to_write = {} if unchanged
    else qlik_ct_log_buckets_to_write(full_load_plan) -%}
{%- if to_write | length == 0 -%}
{{ cdc_nothing_new() }}
{%- else %}
{#- at most cdc_tables_per_statement() tables a statement: this one writes
    the first batch, cdc_write_later_batches (a post-hook) the others -#}
{%- set batches = cdc_table_batches(to_write) -%}
{%- set later = [] -%}
{%- for batch in batches[1:] -%}
    {%- do later.append(qlik_ct_log_rows(batch, full_load_plan)) -%}
{%- endfor -%}
{%- do cdc_remember_later_batches(later) %}

{{ qlik_ct_log_rows(batches[0], full_load_plan) }}

{%- endif %}
