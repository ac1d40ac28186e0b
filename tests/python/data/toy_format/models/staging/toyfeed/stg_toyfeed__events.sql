{{ config(
    enabled=cdc_history.cdc_source_system_enabled('toyfeed'),
    materialized='incremental',
    incremental_strategy='append'
) }}
{#- One row per landed toyfeed event not staged before (by its row hash), typed, its key
    taken from the row, and judged: invalid_reason says why it cannot be logged. -#}

with

landed as (

    select
        sha2(to_json(struct(events.*)), 256) as row_hash,
        events.seq as seq_text,
        try_cast(events.seq as bigint) as seq,
        upper(trim(events.op)) as op,
        lower(trim(events.table_name)) as source_table,
        try_cast(events.changed_at as timestamp) as changed_at,
        events.row_json,
        from_json(events.row_json, 'map<string, string>') as row_image
    from {{ ref('toyfeed_events') }} as events

),

keyed as (

    select
        landed.*,
        case landed.source_table
            {%- for table_name in cdc_history.cdc_tables_of('toyfeed') %}
            when {{ cdc_history.sql_string_literal(table_name) }}
                then {{ cdc_history.cdc_pk_map(cdc_history.cdc_key_columns(table_name), 'landed.row_image') }}
            {%- endfor %}
        end as pk
    from landed
    {%- if is_incremental() %}
    left anti join {{ this }} as staged
        on landed.row_hash = staged.row_hash
    {%- endif %}

)

select
    keyed.row_hash,
    keyed.seq_text,
    keyed.seq,
    keyed.op,
    keyed.source_table,
    keyed.changed_at,
    keyed.row_json,
    keyed.row_image,
    keyed.pk,
    {{ cdc_history.cdc_pk_string_of_map('keyed.pk') }} as pk_string,
    case
        when keyed.seq is null then 'seq is not a whole number'
        when keyed.op not in ('I', 'U', 'D') then 'unknown operation'
        when keyed.pk is null then 'table not configured'
        when keyed.changed_at is null then 'changed_at is not a time'
        when keyed.row_image is null then 'row_json is not a JSON object'
        when exists(map_values(keyed.pk), key_value -> key_value is null)
            then 'a key value is missing'
    end as invalid_reason,
    current_timestamp() as loaded_at
from keyed
