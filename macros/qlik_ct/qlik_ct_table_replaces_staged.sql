{% macro qlik_ct_table_replaces_staged(table_name) %}
    {#- The format's <system>_table_replaces_staged hook (cdc_table_replaces_staged): a Qlik
        table keeping the latest load (duplicate_resolution latest_load,
        qlik_ct_keeps_latest_load) lets a later run's row supersede a staged change. -#}
    {{ return(cdc_history.qlik_ct_keeps_latest_load(table_name)) }}
{% endmacro %}
