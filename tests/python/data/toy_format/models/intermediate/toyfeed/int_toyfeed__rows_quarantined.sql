{{ config(enabled=cdc_history.cdc_source_system_enabled('toyfeed')) }}
{#- One row per staged toyfeed event kept out of the change log, with the reason
    (stg_toyfeed__events.invalid_reason). A view. -#}

with

quarantined as (

    select
        'toyfeed' as source_system,
        staged.source_table,
        'toyfeed_events' as landed_table,
        staged.seq_text as raw_key,
        lpad(cast(staged.seq as string), 20, '0') as order_key,
        staged.invalid_reason as reason,
        staged.row_json as record_json,
        staged.loaded_at
    from {{ ref('stg_toyfeed__events') }} as staged
    where staged.invalid_reason is not null

)

select {{ cdc_history.cdc_select_columns(cdc_history.cdc_quarantine_columns(), 'quarantined') }}
from quarantined
