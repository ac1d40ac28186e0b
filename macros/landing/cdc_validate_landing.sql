{% macro cdc_validate_landing(source_system) %}
    {#- files mode: var <system>_landing_root is set and <system>_landing_format is parquet
        or csv, else the run stops saying which var to set. -#}
    {%- set root = var(source_system ~ '_landing_root', '') | trim -%}
    {%- set file_format = var(source_system ~ '_landing_format', 'parquet') | lower -%}
    {%- if root == '' -%}
        {{ exceptions.raise_compiler_error(
            "register_landed_tables: " ~ source_system ~ "_landing is 'files' but "
            ~ source_system ~ "_landing_root is empty; pass --vars '{" ~ source_system
            ~ "_landing_root: /path/to/landing}'") }}
    {%- endif -%}
    {%- if file_format not in ['parquet', 'csv'] -%}
        {{ exceptions.raise_compiler_error(
            "register_landed_tables: " ~ source_system ~ "_landing_format must be parquet or "
            ~ "csv, got '" ~ file_format ~ "'") }}
    {%- endif -%}
{% endmacro %}
