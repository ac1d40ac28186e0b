{% macro cdc_files_not_staged(source_system, relation_alias, check_columns=true) %}
    {#- The condition on the landed rows an incremental run of a staging model reads in
        files mode (var <source_system>_landing: files): only files not staged yet under
        their path and modification time, as the model's own landed_file and
        landed_file_modified_at columns record them (a rewritten file is read again; its
        rows already staged are the model's to skip). A condition on _metadata, so Spark
        prunes the other files before opening them: the cost of a run follows the new
        files, not all landed so far. 'true' in other landings, on a first build or full
        refresh, when nothing has been staged from a file yet, or when the table predates
        these columns (the run then reads every file, as before, and dbt's schema check
        stops it with its own message); `check_columns` false skips that check for a
        model whose tables always had them (one describe fewer a run). -#}
    {%- if cdc_history.cdc_var(source_system ~ '_landing') != 'files' or not execute or not is_incremental() -%}
        {{ return('true') }}
    {%- endif -%}
    {%- if check_columns -%}
        {%- set columns = adapter.get_columns_in_relation(this) | map(attribute='name')
            | map('lower') | list -%}
        {%- if 'landed_file' not in columns or 'landed_file_modified_at' not in columns -%}
            {{ return('true') }}
        {%- endif -%}
    {%- endif -%}
    {%- set staged = run_query(
        "select distinct concat(landed_file, '@', cast(landed_file_modified_at as string))"
        ~ " from " ~ this ~ " where landed_file is not null").columns[0].values() -%}
    {%- if staged | length == 0 -%}
        {{ return('true') }}
    {%- endif -%}
    {{ return(
        "concat(" ~ relation_alias ~ "._metadata.file_path, '@', cast("
        ~ relation_alias ~ "._metadata.file_modification_time as string))"
        ~ " not in (" ~ cdc_history.sql_string_list(staged) ~ ")") }}
{% endmacro %}
