{% macro qlik_ct_quarantine_members() %}
    {#- The format's <system>_quarantine_members hook (cdc_quarantine_members): the selects
        whose union is int_qlik_ct__rows_quarantined, each in the quarantine's columns
        (cdc_quarantine_columns): one a table (its int_qlik_ct__<table>_rows_quarantined
        view), then the landed files kept out (int_qlik_ct__landed_files_quarantined). A
        table that writes the quarantine can so write a batch of tables a statement
        (fct_cdc_quarantine, cdc_table_batches) instead of planning every table's view
        at once. -#}
    {%- set members = [] -%}
    {%- for table_name in cdc_history.cdc_tables_of('qlik_ct') -%}
        {%- set member -%}
    select
        {{- cdc_history.cdc_select_columns(cdc_history.cdc_quarantine_columns(), 'quarantined') }}
    from (
        select
            'qlik_ct' as source_system,
            table_rows.*
        from {{ ref('int_qlik_ct__' ~ table_name ~ '_rows_quarantined') }} as table_rows
    ) as quarantined
        {%- endset -%}
        {%- do members.append(member) -%}
    {%- endfor -%}
    {%- set landed_files -%}
    select
        {{- cdc_history.cdc_select_columns(cdc_history.cdc_quarantine_columns(), 'quarantined') }}
    from {{ ref('int_qlik_ct__landed_files_quarantined') }} as quarantined
    {%- endset -%}
    {%- do members.append(landed_files) -%}
    {{ return(members) }}
{% endmacro %}
