{% macro cdc_landed_file_columns(source_system, relation_alias='landed') %}
    {#- The select-list columns landed_file and landed_file_modified_at of a landed table's
        rows (aliased `relation_alias`): in files mode (var <source_system>_landing: files)
        the path and modification time of the row's file (Spark's _metadata), which
        cdc_files_not_staged reads back to skip the files staged already; NULL in the other
        landings. -#}
    {%- if cdc_history.cdc_var(source_system ~ '_landing') == 'files' -%}
        {{ relation_alias }}._metadata.file_path as landed_file,
        {{ relation_alias }}._metadata.file_modification_time as landed_file_modified_at
    {%- else -%}
        cast(null as string) as landed_file,
        cast(null as timestamp) as landed_file_modified_at
    {%- endif -%}
{% endmacro %}
