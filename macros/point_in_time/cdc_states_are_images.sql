{% macro cdc_states_are_images(table_name, columns) %}
    {#- True when a key's state after each image is the image itself, so cdc_state_images
        runs no window: the table's images are complete (cdc_images_complete) and no
        column ignores NULL updates. False when states merge over each key's lineage
        (images that lack columns, NULLs kept back), which key moves carry from one key to
        another. -#}
    {{ return(cdc_history.cdc_images_complete(table_name)
        and not cdc_history.cdc_history_options(table_name, columns).ignore_null) }}
{% endmacro %}
