{{
    config(
        enabled=cdc_source_system_enabled('goldengate'),
        **goldengate_trail_file_config()
    )
}}
{#- One row per canonical change (spec F.1, F.4 columns E1 and E2) from the
    GoldenGate trail records and Big Data JSON messages that passed judgement:
    I, U and D row changes, and TRUNCATE, DDL and METADATA control changes.
    Trail: order_scope ogg:<var goldengate_trail_name>, order_key
    lpad(seqno, 10) || lpad(rba, 20) of the (first chunk of the) record;
    transactions from TransInd (txn_seq, txn_last; flag transaction_incomplete
    when the transaction's start, end or a chunk has not landed, or its
    sequence is broken). JSON: order_scope ogg:<var goldengate_json_name>,
    order_key pos made fixed-width the same way; no transaction ends.
    effective_at is op_ts (IO Time, op_ts: UTC assumed) made monotone within
    the order scope (its running maximum in order_key order, taken per order
    segment and carried across them: cdc_running_max, so no task holds a whole
    trail). A table, so that each table's images, the transaction boundaries
    and the change log (int_goldengate__changes_canonical, the view over it in
    the canonical columns) read it instead of ordering the whole trail again.

    Incremental by trail file (partition trail_seqno, none for the JSON
    messages), as the judged changes are (goldengate_trail_files_to_write): a
    run rewrites the trail's changes from the first file a newly staged record
    can change, their effective_at carried on from the largest op_ts of the
    files kept, and the JSON messages whole. A first build, a full refresh or
    a write that never finished writes every file. #}
-- depends_on: {{ ref('stg_goldengate__trail_records') }}
-- depends_on: {{ ref('int_goldengate__trail_chunks_reassembled') }}
{#- (goldengate_trail_files_to_write reads the staged records' files and the
    reassembled trail) #}
{#- nothing judged since the last write read it: skipped unread
    (cdc_inputs_unchanged) #}
{%- if cdc_inputs_unchanged() -%}
{{ cdc_nothing_new() }}
{%- else -%}
{%- set plan = goldengate_trail_files_to_write(
    ref('int_goldengate__trail_chunks_reassembled')) -%}
{%- set trail_scope = 'ogg:' ~ cdc_var('goldengate_trail_name') -%}
{%- set op_ts_kept = none -%}
{%- if not plan.whole and plan.from_file is not none -%}
    {#- the running maximum's carry: the largest op_ts of the files kept (as
        microseconds, so no time zone comes between) -#}
    {%- set op_ts_kept = run_query(
        'select unix_micros(max(kept.effective_at)) from ' ~ this
        ~ ' as kept where kept.trail_seqno < ' ~ (plan.from_file | int)
    ).rows[0][0] -%}
{%- endif %}

with

judged as (

    select judged.*
    from {{ ref('int_goldengate__changes_judged') }} as judged
    where
        judged.judge_error is null
        and judged.duplicate_status = 'first'
        and {{ goldengate_trail_files_filter(plan, 'judged') }}

),

timed as (

    {%- if op_ts_kept is not none %}
    {%- set op_ts = 'case when scoped.order_scope = '
        ~ sql_string_literal(trail_scope)
        ~ ' then greatest(scoped.op_ts, timestamp_micros('
        ~ (op_ts_kept | int) ~ ')) else scoped.op_ts end' %}
    {%- else %}
    {%- set op_ts = 'scoped.op_ts' %}
    {%- endif %}
    {{ cdc_running_max(
        'judged', op_ts, ['order_scope'],
        goldengate_order_segment('scoped'), 'order_key', 'effective_at'
    ) | indent(4) }}

),

changes as (

    select
        ---------- identity (spec F.1)
        sha2(
            concat_ws(
                '|', timed.source_system, timed.order_scope,
                timed.order_key, '0'
            ),
            256
        ) as change_id,
        timed.source_system,
        timed.source_instance,
        coalesce(
            {# catalog.schema.table or schema.table: the part before the
               table #}
            case
                when timed.source_table_name like '%.%'
                    then substring_index(
                        substring_index(timed.source_table_name, '.', -2),
                        '.',
                        1
                    )
            end,
            case timed.source_table
                {%- for table_name in cdc_tables_of('goldengate') %}
                when {{ sql_string_literal(table_name) }}
                    then {{ sql_string_literal(
                        cdc_table_config(table_name).get('source_schema', '')) }}
                {%- endfor %}
            end
        ) as source_schema,
        timed.source_table,
        lower(timed.source_table) as source_table_norm,

        ---------- operation (spec F.4)
        case
            when timed.change_kind in ('I', 'U', 'D')
                then timed.change_kind
        end as op,
        case
            when timed.change_kind not in ('I', 'U', 'D')
                then timed.change_kind
        end as control_op,
        false as is_snapshot,
        timed.before_image is not null as has_before_image,

        ---------- key (spec F.2)
        case when timed.change_kind in ('I', 'U', 'D') then timed.pk end
            as pk,
        case
            when timed.change_kind in ('I', 'U', 'D') then timed.pk_string
        end as pk_string,
        timed.pk_before,
        timed.pk_changed,

        ---------- ordering and transaction (spec E.3, F.3)
        timed.order_scope,
        timed.order_key,
        timed.txn_id,
        timed.txn_seq,
        timed.txn_last,
        cast(null as timestamp) as commit_ts,
        timed.op_ts,
        timed.effective_at,

        ---------- images (spec E.5)
        timed.changed_columns,
        timed.present_columns,
        timed.before_image,
        timed.after_image,
        timed.image_complete,
        false as needs_lookup,
        filter(
            concat(
                timed.base_flags,
                array(
                    case
                        when not timed.is_transaction_complete
                            then 'transaction_incomplete'
                    end,
                    case when timed.pk_changed then 'key_update' end
                )
            ),
            flag -> flag is not null
        ) as flags,

        ---------- lineage
        timed.raw_source,
        timed.raw_key,
        timed.loaded_at,

        ---------- partition (goldengate_trail_files_to_write)
        timed.trail_seqno
    from timed

)

select
    {{- cdc_select_columns(cdc_canonical_columns(), 'changes') }},
    changes.trail_seqno
from changes
{%- endif %}
