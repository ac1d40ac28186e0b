{% macro cdc_validate_landing(source_system) %}
    {#- One format's landing settings, checked at parse time (cdc_validate_config, for each
        format with tables): var <system>_landing is seeds, tables or files (a misspelt mode
        would otherwise read as tables); in files mode var <system>_landing_root is set and
        <system>_landing_format is one the format reads (its <system>_landing_formats() when
        it has one, as Qlik Kafka and GoldenGate do; else parquet or csv). Otherwise the
        command stops saying which var to set. -#}
    {%- set landing = cdc_history.cdc_var(source_system ~ '_landing', 'seeds') -%}
    {%- if landing not in ['seeds', 'tables', 'files'] -%}
        {{ exceptions.raise_compiler_error(
            "cdc_validate_landing: var " ~ source_system ~ "_landing must be seeds, tables or "
            ~ "files, got '" ~ landing ~ "'") }}
    {%- endif -%}
    {%- if landing == 'files' -%}
        {%- set root = cdc_history.cdc_var(source_system ~ '_landing_root', '') | trim -%}
        {%- set file_format = cdc_history.cdc_var(source_system ~ '_landing_format', 'parquet') | lower -%}
        {%- if root == '' -%}
            {{ exceptions.raise_compiler_error(
                "cdc_validate_landing: " ~ source_system ~ "_landing is 'files' but "
                ~ source_system ~ "_landing_root is empty; pass --vars '{" ~ source_system
                ~ "_landing_root: /path/to/landing}'") }}
        {%- endif -%}
        {%- set formats = ['parquet', 'csv'] -%}
        {#- a format that reads other file formats lists them in <system>_landing_formats() -#}
        {%- set landing_formats = cdc_history.cdc_format_hook(source_system, 'landing_formats') -%}
        {%- if landing_formats is not none -%}
            {%- set formats = landing_formats() -%}
        {%- endif -%}
        {%- if file_format not in formats -%}
            {{ exceptions.raise_compiler_error(
                "cdc_validate_landing: " ~ source_system ~ "_landing_format must be "
                ~ formats | join(' or ') ~ ", got '" ~ file_format ~ "'") }}
        {%- endif -%}
    {%- endif -%}
{% endmacro %}
