{{ config(enabled=cdc_source_system_enabled('qlik_ct')) }}
{#- One row per landed Qlik file kept out whole (stg_qlik_ct__landed_files: not
    readable as its table's rows), its problem as the reason and raw_key its
    name: a member of int_qlik_ct__rows_quarantined, and of fct_cdc_quarantine
    beside the tables' views (qlik_ct_quarantine_members), which so reads no
    staging model itself. A view. #}

with

kept_out as (

    {{ cdc_landed_files_kept_out(
        'qlik_ct', "regexp_replace(landed_files.landed_table, '__ct$', '')"
    ) | indent(4) }}

)

select
    {{- cdc_select_columns(cdc_quarantine_columns(), 'kept_out') }}
from kept_out
