{% macro cdc_images_complete(table_name) %}
    {#- Whether a configured table's images are complete by configuration
        (cdc_tables.<table>.images_complete; the default is the source system's, var
        cdc_source_systems): every image carries every column. Stops with an error
        naming the table when the setting is not true or false. -#}
    {%- set table = cdc_history.cdc_table_config(table_name) -%}
    {%- set system_default = cdc_history.cdc_source_system_config(table.source_system).get(
        'images_complete', false) -%}
    {%- set images_complete = table.get('images_complete', system_default) -%}
    {%- if images_complete is not boolean -%}
        {{ exceptions.raise_compiler_error(
            "cdc_state_images: images_complete of table '" ~ table_name
            ~ "' in var cdc_tables must be true or false, got " ~ images_complete) }}
    {%- endif -%}
    {{ return(images_complete) }}
{% endmacro %}
