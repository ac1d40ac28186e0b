{% macro cdc_quoted_path(path) %}
    {#- A file path as the quoted identifier of a direct file query (parquet.`path`). -#}
    {{ return(cdc_history.cdc_quoted_name(path)) }}
{% endmacro %}
