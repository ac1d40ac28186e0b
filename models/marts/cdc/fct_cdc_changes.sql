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
    of-order) rows are picked up. #}

with

qlik_ct as (

    select * from {{ ref('int_qlik_ct__changes_canonical') }}

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
    left anti join {{ this }} as loaded
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
