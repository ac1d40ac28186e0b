{% macro cdc_validate_landing(source_system) %}
    {#- files mode: var <system>_landing_root is set and <system>_landing_format is one the
        system reads (parquet or csv; qlik_kafka: parquet or json, i.e. JSON Lines; a format's
        <system>_landing_formats() when it has one), else the
        run stops saying which var to set. -#}
    {%- set root = var(source_system ~ '_landing_root', '') | trim -%}
    {%- set file_format = var(source_system ~ '_landing_format', 'parquet') | lower -%}
    {%- if root == '' -%}
        {{ exceptions.raise_compiler_error(
            "register_landed_tables: " ~ source_system ~ "_landing is 'files' but "
            ~ source_system ~ "_landing_root is empty; pass --vars '{" ~ source_system
            ~ "_landing_root: /path/to/landing}'") }}
    {%- endif -%}
    {%- set formats = ['parquet', 'json'] if source_system == 'qlik_kafka'
                      else ['parquet', 'csv'] -%}
    {#- a format that reads other file formats lists them in <system>_landing_formats() -#}
    {%- if source_system ~ '_landing_formats' in context -%}
        {%- set formats = context[source_system ~ '_landing_formats']() -%}
    {%- endif -%}
    {%- if file_format not in formats -%}
        {{ exceptions.raise_compiler_error(
            "register_landed_tables: " ~ source_system ~ "_landing_format must be "
            ~ formats | join(' or ') ~ ", got '" ~ file_format ~ "'") }}
    {%- endif -%}
{% endmacro %}
