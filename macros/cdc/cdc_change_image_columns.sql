{% macro cdc_change_image_columns(kind) %}
    {#- The select list of one fct_cdc_change_images row taken from fct_cdc_changes (aliased
        `changes`): the change's identity and position, then what this image says (`kind`,
        one entry of cdc_log_image_kinds('changes')). -#}
        changes.change_id,
        changes.source_system,
        changes.source_table,
        changes.order_scope,
        changes.order_key,
        changes.effective_at,
        {{ kind.pk_string }} as pk_string,
        {{ kind.image_oper }} as image_oper,
        {{ kind.is_before_image }} as is_before_image,
        {{ kind.row_exists }} as row_exists,
        {{ kind.image }} as image,
        {{ kind.image_complete }} as image_complete,
        {{ kind.present_columns }} as present_columns,
        changes.loaded_at
{%- endmacro %}
