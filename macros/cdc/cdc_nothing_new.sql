{% macro cdc_nothing_new() %}
    {#- The whole compiled body of an incremental model that has found nothing to add since
        its last run (no file landed, no row staged or imaged after its watermark). The
        project's incremental materialization recognises exactly this query and skips the
        model: no statement, no hook, no write; the table stays as it is. -#}
    {{- return("select 'nothing new since the last run' as cdc_nothing_new where false") -}}
{% endmacro %}
