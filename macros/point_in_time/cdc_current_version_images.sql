{% macro cdc_current_version_images(table_name, columns, versions, keys) %}
    {#- A select of the current versions in `versions` (rows of dim_<table>_history, already
        filtered to the current ones) of the keys in `keys` (a relation with pk_string), as
        complete change images in the layout of int_<table>__change_images: each stands in
        for all the earlier images of its key, so new images can be merged onto it
        (history_increment_events, live_state) without reading the key's past again. -#}
    select
        {{ versions }}.change_id,
        {{ cdc_history.sql_string_literal(cdc_history.cdc_table_config(table_name).source_system) }}
            as source_system,
        {{ cdc_history.sql_string_literal(table_name) }} as source_table,
        {{ versions }}.order_scope,
        {{ versions }}.valid_from_order_key as order_key,
        {{ versions }}.valid_from as effective_at,
        {{ versions }}.pk_string,
        {{ versions }}.change_op as image_oper,
        false as is_before_image,
        not {{ versions }}.is_deleted as row_exists,
        {%- for column in columns %}
        {{ versions }}.{{ column.name }},
        {%- endfor %}
        true as image_complete,
        {{ cdc_history.sql_string_array(columns | map(attribute='name') | list) }}
            as present_columns,
        {{ versions }}.change_loaded_at as loaded_at
    from {{ versions }}
    left semi join {{ keys }}
        on {{ versions }}.pk_string = {{ keys }}.pk_string
{%- endmacro %}
