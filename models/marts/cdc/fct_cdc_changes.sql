{{
    config(
        materialized='incremental',
        incremental_strategy='append',
        on_schema_change='fail'
    )
}}
{#- The canonical change log (spec F.1): one row per change from every source
    system. Incremental: a run appends only changes whose change_id is not
    loaded yet, so a rerun with no new raw rows appends nothing, and late (out-
    of-order) rows are picked up.

    Its cost follows the new rows: of the Qlik change rows, only those staged
    after the newest one in the log (loaded_at) are read, paired and hashed (the
    filter reaches the staging scans through the views), and the change_id
    anti-join reads only the log's rows from the oldest new order_key on. Full-
    load rows are always considered, so a full load landed later still enters. #}
{%- for table_name in cdc_tables_of('qlik_ct') %}
-- depends_on: {{ ref('stg_qlik_ct__' ~ table_name) }}
{%- endfor %}
{%- set since = {} -%}
{%- if is_incremental() and execute -%}
    {%- set newest = run_query(
        "select cast(max(loaded_at) as string) from " ~ this
        ~ " where source_system = 'qlik_ct' and not is_snapshot").columns[0].values()[0] -%}
    {%- if newest is not none -%}
        {%- set staged = [] -%}
        {%- for table_name in cdc_tables_of('qlik_ct') -%}
            {%- do staged.append(
                "select min(order_key) as order_key from "
                ~ ref('stg_qlik_ct__' ~ table_name)
                ~ " where loaded_at > timestamp '" ~ newest ~ "'") -%}
        {%- endfor -%}
        {%- set oldest = run_query(
            "select min(order_key) from (" ~ staged | join(' union all ') ~ ")"
        ).columns[0].values()[0] -%}
        {%- do since.update({'loaded_at': newest, 'order_key': oldest or '~'}) -%}
    {%- endif -%}
{%- endif %}

with

qlik_ct as (

    select canonical.*
    from {{ ref('int_qlik_ct__changes_canonical') }} as canonical
    {%- if since %}
    where
        canonical.is_snapshot
        or canonical.loaded_at > timestamp '{{ since.loaded_at }}'
    {%- endif %}

),

idm_jdbc as (

    select * from {{ ref('int_idm_jdbc__changes_canonical') }}

),

unioned as (

    select * from qlik_ct
    union all
    select * from idm_jdbc

),

new_changes as (

    select unioned.*
    from unioned
    {% if is_incremental() %}
    left anti join (
        select loaded.change_id
        from {{ this }} as loaded
        {%- if since %}
        where
            loaded.source_system != 'qlik_ct'
            or loaded.is_snapshot
            or loaded.order_key >= {{ sql_string_literal(since.order_key) }}
        {%- endif %}
    ) as loaded
        on unioned.change_id = loaded.change_id
    {% endif %}

),

final as (

    select
        new_changes.change_id,
        new_changes.source_system,
        new_changes.source_instance,
        new_changes.source_schema,
        new_changes.source_table,
        new_changes.source_table_norm,
        new_changes.op,
        new_changes.control_op,
        new_changes.is_snapshot,
        new_changes.has_before_image,
        new_changes.pk,
        new_changes.pk_string,
        new_changes.pk_before,
        new_changes.pk_changed,
        new_changes.order_scope,
        new_changes.order_key,
        new_changes.txn_id,
        new_changes.txn_seq,
        new_changes.txn_last,
        new_changes.commit_ts,
        new_changes.op_ts,
        new_changes.effective_at,
        new_changes.changed_columns,
        new_changes.present_columns,
        new_changes.before_image,
        new_changes.after_image,
        new_changes.image_complete,
        new_changes.needs_lookup,
        new_changes.flags,
        new_changes.raw_source,
        new_changes.raw_key,
        coalesce(new_changes.loaded_at, current_timestamp()) as loaded_at
    from new_changes

)

select * from final
