{% macro qlik_ct_full_load_digest(table_name) %}
    {#- The digest of a Qlik table's landed full-load folder (every file by path,
        modification time, size and problem: cdc_landed_files_listing), which decides
        whether int_qlik_ct__changes_logged rewrites the table's full-load bucket; none when
        it cannot be told (landing not in files mode: the full load is rewritten with its
        table, as every reader of a registered table must assume). -#}
    {%- if cdc_history.cdc_var('qlik_ct_landing', '') != 'files' -%}
        {{ return(none) }}
    {%- endif -%}
    {{ return(cdc_history.cdc_landed_files_listing('qlik_ct').get(table_name, {}).get('digest', 'no file')) }}
{% endmacro %}
