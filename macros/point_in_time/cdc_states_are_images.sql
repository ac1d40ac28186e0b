{% macro cdc_states_are_images(table_name, columns) %}
    {#- True when a key's state after each image is the image itself, so cdc_state_images
        runs no window: the table's images are complete (cdc_tables.<table>.images_complete;
        the default is the source system's, var cdc_source_systems) and no column ignores
        NULL updates. False when states merge over each key's lineage (images that lack
        columns, NULLs kept back), which key moves carry from one key to another. -#}
    {%- set table = cdc_table_config(table_name) -%}
    {%- set system_default = cdc_source_system_config(table.source_system).get(
        'images_complete', false) -%}
    {%- set images_complete = table.get('images_complete', system_default) -%}
    {%- if images_complete is not boolean -%}
        {{ exceptions.raise_compiler_error(
            "cdc_state_images: images_complete of table '" ~ table_name
            ~ "' in var cdc_tables must be true or false, got " ~ images_complete) }}
    {%- endif -%}
    {{ return(images_complete and not cdc_history_options(table_name, columns).ignore_null) }}
{% endmacro %}
