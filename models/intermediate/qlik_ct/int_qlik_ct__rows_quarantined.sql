{{ config(enabled=cdc_source_system_enabled('qlik_ct')) }}
{#- One row per landed Qlik row that cannot flow on (spec A.12), with the
    reason: each table's int_qlik_ct__<table>_rows_quarantined (rows the staging
    models judged invalid, before-images with no U at their change_seq, invalid
    full-load rows; one line a table here, so the view's text stays short), and
    landed files kept out whole (int_qlik_ct__landed_files_quarantined: one row
    per file, raw_key its name). Nothing is dropped silently:
    every row is either here or in the log. A view: always current, so a row
    leaves it once its cause is fixed (e.g. the U of an orphan before-image
    arrives). fct_cdc_quarantine reads the same union from its members
    (qlik_ct_quarantine_members), a batch of tables a statement. #}

with

landed_files_kept_out as (

    {#- source_system is added to every row below #}
    select landed_files_with_system.* except (source_system)
    from {{ ref('int_qlik_ct__landed_files_quarantined') }}
        as landed_files_with_system

),

unioned as (

    {% for table_name in cdc_tables_of('qlik_ct') -%}
    select * from {{ ref('int_qlik_ct__' ~ table_name ~ '_rows_quarantined') }}
    union all
    {% endfor %}
    select * from landed_files_kept_out

),

quarantined as (

    select
        'qlik_ct' as source_system,
        unioned.*
    from unioned

)

select
    {{- cdc_select_columns(cdc_quarantine_columns(), 'quarantined') }}
from quarantined
