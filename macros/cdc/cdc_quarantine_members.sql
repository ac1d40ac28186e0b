{% macro cdc_quarantine_members() %}
    {#- The selects whose union is every enabled format's quarantine, each in the
        quarantine's columns (cdc_quarantine_columns): for a format with the hook
        <system>_quarantine_members (qlik_ct_quarantine_members: one a table) its members,
        else one select of its int_<system>__rows_quarantined. fct_cdc_quarantine writes
        them cdc_tables_per_statement() members a statement (cdc_table_batches). A member
        holds every row of a landed table (the quarantine_id's occurrence number counts
        within one). -#}
    {%- set members = [] -%}
    {%- for system in cdc_history.cdc_source_systems_enabled() -%}
        {%- set hook = cdc_history.cdc_format_hook(system, 'quarantine_members') -%}
        {%- if hook is not none -%}
            {%- do members.extend(hook()) -%}
        {%- else -%}
            {%- set member -%}
    select
        {{- cdc_history.cdc_select_columns(cdc_history.cdc_quarantine_columns(), 'quarantined') }}
    from {{ ref('int_' ~ system ~ '__rows_quarantined') }} as quarantined
            {%- endset -%}
            {%- do members.append(member) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(members) }}
{% endmacro %}
