{% macro qlik_ct_unstaged_files_filter(table_name, relation_alias) %}
    {#- The condition on the landed rows of <table>__ct that an incremental run of
        stg_qlik_ct__<table> reads. Files mode: only files stg_qlik_ct__landed_files found
        readable (cdc_landing_files_filter) and not staged yet under their path and
        modification time (a rewritten file is read again); both are conditions on
        _metadata, so Spark prunes the other files before opening them. Other landings:
        true (every landed row; the staged keys decide). -#}
    {%- set conditions = [cdc_landing_files_filter('qlik_ct', table_name ~ '__ct', relation_alias)] -%}
    {%- if var('qlik_ct_landing') == 'files' and is_incremental() and execute -%}
        {%- set staged = run_query(
            "select distinct concat(landed_file, '@', cast(landed_file_modified_at as string))"
            ~ " from " ~ this ~ " where landed_file is not null").columns[0].values() -%}
        {%- if staged | length > 0 -%}
            {%- set literals = [] -%}
            {%- for file in staged -%}
                {%- do literals.append(sql_string_literal(file)) -%}
            {%- endfor -%}
            {%- do conditions.append(
                "concat(" ~ relation_alias ~ "._metadata.file_path, '@', cast("
                ~ relation_alias ~ "._metadata.file_modification_time as string))"
                ~ " not in (" ~ literals | join(", ") ~ ")") -%}
        {%- endif -%}
    {%- endif -%}
    {{ return(conditions | join('\n        and ')) }}
{% endmacro %}
