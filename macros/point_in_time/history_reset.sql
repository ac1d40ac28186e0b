{% macro history_reset() %}
    {#- Pre-hook of dim_<table>_history. dbt-spark's insert_overwrite sets dynamic partition
        overwrite, which replaces only the partitions the query writes. When this run rebuilds
        an existing history (history_plan found no increment; the compiled SQL says so), switch
        to static mode, so that the same insert replaces every partition in one statement: no
        bucket keeps stale versions, and a failed rebuild leaves the old history in place. The
        post-hook switches back. -#}
    {%- if execute and model.resource_type == 'model' and is_incremental()
          and '-- history_plan: rebuild' in (sql or '') -%}
        set spark.sql.sources.partitionOverwriteMode = STATIC
    {%- else -%}
        select 1 as history_kept
    {%- endif -%}
{% endmacro %}
