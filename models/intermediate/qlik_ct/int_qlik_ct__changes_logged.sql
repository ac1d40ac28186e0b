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
    view node a table to build).

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
    full refresh takes the folder as it is as the baseline (README "A Qlik
    reload applied as a snapshot"). -#}
{%- set order_scope = 'qlik:' ~ var('qlik_ct_task') -%}
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

with
{# one CTE a table written: its changes paired (qlik_ct_changes_paired); a table
   name is an identifier (cdc_is_table_name) #}
{%- for table_name in to_write %}

{{ table_name }}__paired as (

    {{ qlik_ct_changes_paired(table_name) | indent(4) }}

),
{%- endfor %}

all_rows as (

    {% for table_name, buckets in to_write.items() -%}
    {%- set full_load = full_load_plan[table_name] -%}
    select * from {{ table_name }}__paired
    {%- if buckets is none and full_load.action != 'baseline' %}
    {# written whole, but the logged full load stays: it is what the folder holds,
       or a reload replaced it there #}
    where not is_snapshot
    {%- elif buckets is not none and buckets | length == 0 %}
    where false
    {%- elif buckets is not none %}
    where {{ qlik_ct_log_bucket('order_key') }} in (
        {%- for bucket in buckets -%}
        {{ sql_string_literal(bucket) }}{{ ', ' if not loop.last }}
        {%- endfor -%}
    )
    {#- the same rows as a range, which Parquet can skip older runs' files by (the
        bucket list cannot be pushed to a scan): a logged order key is 35 digits or
        the full load's zeros, so each key of these buckets lies from the least
        bucket up to the greatest followed by '~', above every digit #}
    and order_key >= {{ sql_string_literal(buckets | min) }}
    and order_key < {{ sql_string_literal((buckets | max) ~ '~') }}
    {%- endif %}
    {%- if full_load.action == 'reload' %}
    union all
    {{ qlik_ct_reload_rows(table_name, full_load.at, table_name ~ '__paired') }}
    {%- endif %}
    {% if not loop.last %}union all{% endif %}
    {% endfor %}

),

canonical as (

    select
        ---------- identity (spec F.1)
        sha2(
            concat_ws(
                '|',
                'qlik_ct',
                {{ sql_string_literal(order_scope) }},
                all_rows.order_key,
                case
                    when all_rows.is_snapshot
                        then concat_ws(
                            '|', all_rows.source_table, all_rows.pk_string
                        )
                    else '0'
                end
            ),
            256
        ) as change_id,
        'qlik_ct' as source_system,
        {{ sql_string_literal(var('qlik_ct_task')) }} as source_instance,
        case all_rows.source_table
            {%- for table_name in cdc_tables_of('qlik_ct') %}
            {%- set table = cdc_table_config(table_name) %}
            {%- set source_schema = table.get('source_schema', '') %}
            when {{ sql_string_literal(table_name) }}
                then {{ sql_string_literal(source_schema) }}
            {%- endfor %}
        end as source_schema,
        all_rows.source_table,
        lower(all_rows.source_table) as source_table_norm,

        ---------- operation
        case when not all_rows.is_truncate then all_rows.change_oper end as op,
        case when all_rows.is_truncate then 'TRUNCATE' end as control_op,
        all_rows.is_snapshot,
        case
            when all_rows.change_oper = 'U'
                then all_rows.before_image_row is not null
            else all_rows.change_oper = 'D'
        end as has_before_image,

        ---------- key (spec F.2)
        case when not all_rows.is_truncate then all_rows.pk end as pk,
        all_rows.pk_string,
        case
            when all_rows.before_image_pk_string != all_rows.pk_string
                then all_rows.before_image_pk
        end as pk_before,
        coalesce(
            all_rows.before_image_pk_string != all_rows.pk_string, false
        ) as pk_changed,

        ---------- ordering (spec F.3)
        {{ sql_string_literal(order_scope) }} as order_scope,
        all_rows.order_key,
        all_rows.transaction_id as txn_id,
        cast(null as bigint) as txn_seq,
        cast(null as boolean) as txn_last,
        cast(null as timestamp) as commit_ts,
        all_rows.op_ts,
        {# change_seq time part: monotone in a task, unlike header__timestamp #}
        all_rows.change_seq_at as effective_at,

        ---------- images
        case
            when all_rows.change_oper in ('I', 'U')
                then all_rows.changed_columns
        end as changed_columns,
        all_rows.present_columns,
        case
            when all_rows.change_oper = 'U' then all_rows.before_image_row
            when all_rows.change_oper = 'D' then all_rows.row_image
        end as before_image,
        case
            when all_rows.change_oper in ('I', 'U') then all_rows.row_image
        end as after_image,
        not all_rows.is_truncate as image_complete,
        false as needs_lookup,
        case
            when
                all_rows.change_oper = 'U'
                and all_rows.before_image_row is null
                and all_rows.mask_sets_key_bits
                then array_union(
                    all_rows.flags, array('key_update_without_before_image')
                )
            else all_rows.flags
        end as flags,

        ---------- lineage
        concat(
            {{ sql_string_literal(var('qlik_ct_schema') ~ '.') }},
            all_rows.source_table,
            case when all_rows.is_snapshot then '' else '__ct' end
        ) as raw_source,
        all_rows.raw_key,
        all_rows.loaded_at,

        ---------- partition (qlik_ct_log_bucket; a reload has its own, which
        ---------- no write rewrites from the landing: the folder moved on)
        case
            when array_contains(all_rows.flags, 'reload')
                then concat('reload-', substr(all_rows.order_key, 1, 16))
            else {{ qlik_ct_log_bucket('all_rows.order_key') }}
        end as log_bucket

    from all_rows

)

select * from canonical

{%- endif %}
