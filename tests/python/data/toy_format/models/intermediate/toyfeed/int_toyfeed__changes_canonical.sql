{{ config(enabled=cdc_history.cdc_source_system_enabled('toyfeed')) }}
{#- One row per canonical change (spec F.1) of the toyfeed events: every valid staged
    event, its row the after-image of an insert or update and the deleted row of a delete
    (whole rows: images complete), ordered by its sequence number. A view. Its source
    instance is the format's setting `feed` (its registry entry's default, or var
    toyfeed_feed). -#}
{%- set feed = cdc_history.cdc_var('toyfeed_feed') %}
{%- set order_scope = 'toyfeed:' ~ feed %}

with

valid as (

    select staged.*
    from {{ ref('stg_toyfeed__events') }} as staged
    where staged.invalid_reason is null

),

canonical as (

    select
        sha2(
            concat_ws(
                '|', 'toyfeed', {{ cdc_history.sql_string_literal(order_scope) }},
                valid.source_table,
                lpad(cast(valid.seq as string), 20, '0'), valid.pk_string
            ),
            256
        ) as change_id,
        'toyfeed' as source_system,
        {{ cdc_history.sql_string_literal(feed) }} as source_instance,
        case valid.source_table
            {%- for table_name in cdc_history.cdc_tables_of('toyfeed') %}
            when {{ cdc_history.sql_string_literal(table_name) }}
                then {{ cdc_history.sql_string_literal(
                    cdc_history.cdc_table_config(table_name).get('source_schema', '')) }}
            {%- endfor %}
        end as source_schema,
        valid.source_table,
        valid.source_table as source_table_norm,
        valid.op,
        cast(null as string) as control_op,
        false as is_snapshot,
        valid.op = 'D' as has_before_image,
        valid.pk,
        valid.pk_string,
        cast(null as map<string, string>) as pk_before,  -- noqa: LT01
        false as pk_changed,
        {{ cdc_history.sql_string_literal(order_scope) }} as order_scope,
        lpad(cast(valid.seq as string), 20, '0') as order_key,
        cast(null as string) as txn_id,
        cast(null as bigint) as txn_seq,
        cast(null as boolean) as txn_last,
        valid.changed_at as commit_ts,
        valid.changed_at as op_ts,
        valid.changed_at as effective_at,
        {# the feed does not say which columns an update changed: all it carries #}
        case when valid.op in ('I', 'U') then map_keys(valid.row_image) end
            as changed_columns,
        map_keys(valid.row_image) as present_columns,
        case when valid.op = 'D' then valid.row_image end as before_image,
        case when valid.op in ('I', 'U') then valid.row_image end as after_image,
        true as image_complete,
        false as needs_lookup,
        cast(array() as array<string>) as flags,
        'toyfeed_events' as raw_source,
        valid.seq_text as raw_key,
        valid.loaded_at
    from valid

)

select {{ cdc_history.cdc_select_columns(cdc_history.cdc_canonical_columns(), 'canonical') }}
from canonical
