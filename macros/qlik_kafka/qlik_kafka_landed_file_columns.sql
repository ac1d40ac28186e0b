{% macro qlik_kafka_landed_file_columns(landed_files) %}
    {#- The select-list columns landed_file and landed_file_modified_at of a landed Kafka
        table aliased `landed`: its file's path and modification time in files mode
        (`landed_files` true; Spark's _metadata), NULL in the other landings. -#}
    {%- if landed_files -%}
        landed._metadata.file_path as landed_file,
        landed._metadata.file_modification_time as landed_file_modified_at
    {%- else -%}
        cast(null as string) as landed_file,
        cast(null as timestamp) as landed_file_modified_at
    {%- endif -%}
{% endmacro %}
