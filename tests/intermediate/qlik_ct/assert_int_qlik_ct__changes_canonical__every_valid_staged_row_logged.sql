{{ config(enabled=cdc_source_system_enabled('qlik_ct')) }}
{#- Completeness between staging and the log: every valid I, U, D or TRUNCATE
    row of every Qlik staging model has its change in the format's canonical
    changes (what fct_cdc_changes unions). Returns the rows that went missing on
    the way. Valid as their readers take them (qlik_ct_staged_rows): a row that a
    later load superseded (duplicate_resolution latest_load) is not logged. #}

with

{% for table_name in cdc_tables_of('qlik_ct') -%}
{{ table_name }}_staged as (

    select
        staged.source_table,
        staged.raw_key
    from {{ qlik_ct_staged_rows(table_name) }} as staged
    where staged.is_valid and coalesce(staged.change_oper, '') != 'B'

),

{% endfor -%}

staged_rows as (

    {% for table_name in cdc_tables_of('qlik_ct') -%}
    select * from {{ table_name }}_staged
    {% if not loop.last %}union all{% endif %}
    {% endfor %}

),

logged as (

    select
        change_log.source_table,
        change_log.raw_key
    from {{ ref('int_qlik_ct__changes_canonical') }} as change_log
    where not change_log.is_snapshot

),

missing_from_log as (

    select staged_rows.*
    from staged_rows
    left anti join logged
        on
            staged_rows.source_table = logged.source_table
            and staged_rows.raw_key = logged.raw_key

)

select * from missing_from_log
