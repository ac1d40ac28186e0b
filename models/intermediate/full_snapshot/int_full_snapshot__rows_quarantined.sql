{{ config(enabled=cdc_source_system_enabled('full_snapshot')) }}
{#- One row per landed full-snapshot row kept out of the change log, with the
    reason (stg_full_snapshot__<table>.invalid_reason: a malformed CSV record, a
    snapshot id that is not a time, a row landed for a snapshot an earlier run
    applied, a NULL key value, a value that does not convert, a key one
    snapshot holds twice), and each landed file kept out whole. A view. #}

with

invalid_rows as (
    {%- for table_name in cdc_tables_of('full_snapshot') %}

    select
        staged.source_table,
        staged.landed_table,
        staged.snapshot_text,
        staged.pk_string,
        staged.order_key,
        staged.invalid_reason,
        staged.row_values,
        staged.malformed_record,
        staged.landed_file,
        staged.loaded_at
    from {{ ref('stg_full_snapshot__' ~ table_name) }} as staged
    where not staged.is_valid
    {%- if not loop.last %}

    union all
    {%- endif %}
    {%- endfor %}

),

quarantined as (

    select
        'full_snapshot' as source_system,
        invalid_rows.source_table,
        invalid_rows.landed_table,
        concat(
            coalesce(invalid_rows.snapshot_text, 'NULL'), ':',
            coalesce(invalid_rows.pk_string, 'NULL')
        ) as raw_key,
        invalid_rows.order_key,
        invalid_rows.invalid_reason as reason,
        to_json(named_struct(
            'snapshot', invalid_rows.snapshot_text,
            'row', invalid_rows.row_values,
            'malformed_record', invalid_rows.malformed_record,
            'file', invalid_rows.landed_file
        )) as record_json,
        invalid_rows.loaded_at
    from invalid_rows

    union all

    {{ cdc_landed_files_kept_out('full_snapshot') }}

)

select
    {{- cdc_select_columns(cdc_quarantine_columns(), 'quarantined') }}
from quarantined
