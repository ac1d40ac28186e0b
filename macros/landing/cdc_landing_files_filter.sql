{% macro cdc_landing_files_filter(source_system, landed, relation_alias) %}
    {#- In files mode, a condition on a landed table's rows: only the files that
        stg_<system>__landed_files found readable and like the reference file are read
        (a literal list of file names, so Spark prunes the other files before opening them:
        a truncated or mistyped file can never fail the query). Elsewhere: true. Calls ref()
        outside `execute` so dbt builds the file list first; the list is read once a run
        for all of a format's landed tables (cdc_landed_files_listing). -#}
    {%- do ref('stg_' ~ source_system ~ '__landed_files') -%}
    {%- if cdc_history.cdc_var(source_system ~ '_landing') != 'files' -%}
        {{ return('true') }}
    {%- endif -%}
    {%- if not execute -%}
        {{ return('true') }}
    {%- endif -%}
    {%- set names = cdc_history.cdc_landed_files_listing(source_system).get(landed, {}).get('readable', []) -%}
    {%- if names | length == 0 -%}
        {{ return('false') }}
    {%- endif -%}
    {{ return(relation_alias ~ '._metadata.file_name in (' ~ cdc_history.sql_string_list(names) ~ ')') }}
{% endmacro %}
