{% macro cdc_change_image_columns(
    pk_string, image_oper, is_before_image, row_exists, image,
    image_complete='changes.image_complete', present_columns='changes.present_columns'
) %}
    {#- The select list of one fct_cdc_change_images row taken from fct_cdc_changes (aliased
        `changes`): the change's identity and position, then what this image says. -#}
        changes.change_id,
        changes.source_system,
        changes.source_table,
        changes.order_scope,
        changes.order_key,
        changes.effective_at,
        {{ pk_string }} as pk_string,
        {{ image_oper }} as image_oper,
        {{ is_before_image }} as is_before_image,
        {{ row_exists }} as row_exists,
        {{ image }} as image,
        {{ image_complete }} as image_complete,
        {{ present_columns }} as present_columns,
        changes.loaded_at
{%- endmacro %}
