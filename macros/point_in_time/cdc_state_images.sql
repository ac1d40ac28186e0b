{% macro cdc_state_images(table_name, images, columns) %}
    {#- A query over `images` (a CTE of one table's typed images, int_<table>__change_images
        columns, before-images excluded): the same columns, each data column holding the
        key's state after that image (spec F.5), per pk_string in (order_key, row_exists)
        order.

        A "generation" of a key is its run of images since its last non-existing image
        (D, K, or a per-key T); that image still belongs to the generation it ends, so a
        tombstone shows the last state, merged with what its own image carries. For each
        data column the state holds the last value among the generation's images that
        carry the column (image_complete, or present_columns contains it), even a NULL; a
        column no image of the generation carried is NULL. A complete image is therefore
        the state itself. A T image has no state (every column NULL).

        A TRUNCATE ends every key's generation only if the caller puts it in each key's
        partition (history_rebuild_events adds a T row per key) or drops the images before it
        (point_in_time_query keeps only the images after the last TRUNCATE).

        The window runs only where it is needed: when the table's images are complete
        (cdc_tables.<table>.images_complete; the default is the source system's, var
        cdc_source_systems), the state is the image itself, with no window.

        Not done: carrying the old key's state to the new key when a U changes the key
        (spec F.5 step 2). The new key's generation starts at that U, so columns its image
        lacks are NULL until an image carries them; this matters for incomplete key updates
        (GoldenGate compressed PK updates, Kafka key updates with a partial columnMask). -#}
    {%- if images is none or images == '' -%}
        {{ exceptions.raise_compiler_error("cdc_state_images: images (a CTE name) is required") }}
    {%- endif -%}
    {%- set table = cdc_table_config(table_name) -%}
    {%- set system_default = cdc_source_system_config(table.source_system).get(
        'images_complete', false) -%}
    {%- set images_complete = table.get('images_complete', system_default) -%}
    {%- if images_complete is not boolean -%}
        {{ exceptions.raise_compiler_error(
            "cdc_state_images: images_complete of table '" ~ table_name
            ~ "' in var cdc_tables must be true or false, got " ~ images_complete) }}
    {%- endif -%}
    {%- set names = columns | map(attribute='name') | list -%}
    {#- the query is indented to stand as a CTE body: `    {{ cdc_state_images(...) }}` -#}
    {%- if images_complete -%}
    select * from {{ images }}
    {%- else -%}
    select
        generations.* except (generation, {{ names | join(', ') }}),
        {%- for name in names %}
        case
            when generations.image_oper != 'T' then (last(
                case
                    when
                        generations.image_complete
                        or array_contains(
                            generations.present_columns, {{ sql_string_literal(name) }}
                        )
                        then named_struct('v', generations.{{ name }})
                end,
                true
            ) over generation_order).v
        end as {{ name }}{{ ',' if not loop.last }}
        {%- endfor %}
    from (
        select
            key_images.*,
            count_if(not key_images.row_exists) over (
                partition by key_images.pk_string
                order by key_images.order_key, key_images.row_exists
                rows between unbounded preceding and 1 preceding
            ) as generation
        from {{ images }} as key_images
    ) as generations
    window generation_order as (
        partition by generations.pk_string, generations.generation
        order by generations.order_key, generations.row_exists
        rows between unbounded preceding and current row
    )
    {%- endif %}
{%- endmacro %}
