{% macro qlik_ct_unstaged_files_filter(table_name, relation_alias) %}
    {#- The condition on the landed rows of <table>__ct that an incremental run of
        stg_qlik_ct__<table> reads. Files mode: only files stg_qlik_ct__landed_files found
        readable (cdc_landing_files_filter) and not staged yet under their path and
        modification time (cdc_files_not_staged: a rewritten file is read again); both are
        conditions on _metadata, so Spark prunes the other files before opening them. Other
        landings: true (every landed row; the staged keys decide). -#}
    {%- set conditions = [
        cdc_history.cdc_landing_files_filter('qlik_ct', table_name ~ '__ct', relation_alias),
        cdc_history.cdc_files_not_staged('qlik_ct', relation_alias, check_columns=false)] -%}
    {{ return(conditions | reject('equalto', 'true') | join('\n        and ') or 'true') }}
{% endmacro %}
