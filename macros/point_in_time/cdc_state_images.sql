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

        With ignore_null_updates (cdc_history_options), a NULL that an update (U) carries in
        an ignored column counts as not carried: the state keeps the column's previous
        value. The window recomputes every state from the images, so a late earlier image
        re-coalesces the states after it.

        The window runs only where it is needed: when the table's images are complete
        (cdc_tables.<table>.images_complete; the default is the source system's, var
        cdc_source_systems) and no column ignores NULL updates, the state is the image
        itself, with no window.

        A U that changed the key (spec F.5 step 2) continues the old key's state: its K image
        (same change_id, the old key's tombstone) ends the old key's generation and the U
        starts the new key's, and both generations are one lineage, so a column the U's image
        lacks keeps the old key's value. Lineages follow chains of key moves (A to B to C)
        through a recursive CTE over the key moves alone; a chain longer than the session's
        spark.sql.cteRecursionLevelLimit (profiles.yml) stops the query with an
        error rather than cutting it. The window then runs per lineage instead of per
        generation.
    -#}
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
    {%- set ignore_null = cdc_history_options(table_name, columns).ignore_null -%}
    {#- the query is indented to stand as a CTE body: `    {{ cdc_state_images(...) }}` -#}
    {%- if images_complete and not ignore_null -%}
    select * from {{ images }}
    {%- else -%}
    with recursive

    generations as (

        select
            key_images.*,
            named_struct(
                'pk_string', key_images.pk_string,
                'generation', count_if(not key_images.row_exists) over (
                    partition by key_images.pk_string
                    order by key_images.order_key, key_images.row_exists
                    rows between unbounded preceding and 1 preceding
                )
            ) as generation
        from {{ images }} as key_images

    ),

    key_moves as (

        {#- the generation a key-changing U starts continues the one its K image ends; a
            generation continues at most one (its earliest such U) #}
        select
            moved_to.generation,
            min_by(moved_from.generation, moved_to.order_key) as predecessor
        from generations as moved_to
        inner join generations as moved_from
            on
                moved_to.change_id = moved_from.change_id
                and moved_to.order_key = moved_from.order_key
        where moved_to.image_oper = 'U' and moved_from.image_oper = 'K'
        group by moved_to.generation

    ),

    lineages (generation, lineage) as (

        select distinct
            key_moves.predecessor,
            key_moves.predecessor
        from key_moves
        left anti join key_moves as moves_into
            on key_moves.predecessor = moves_into.generation
        union all
        select
            key_moves.generation,
            lineages.lineage
        from key_moves
        inner join lineages
            on key_moves.predecessor = lineages.generation

    ),

    lineaged as (

        select
            generations.*,
            coalesce(lineages.lineage, generations.generation) as lineage
        from generations
        left join lineages
            on generations.generation = lineages.generation

    )

    select
        lineaged.* except (generation, lineage, {{ names | join(', ') }}),
        {%- for name in names %}
        case
            when lineaged.image_oper != 'T' then (last(
                case
                    when
                        (
                            lineaged.image_complete
                            or array_contains(
                                lineaged.present_columns,
                                {{ sql_string_literal(name) }}
                            )
                        )
                        {%- if name in ignore_null %}
                        and not (
                            lineaged.image_oper = 'U' and lineaged.{{ name }} is null
                        )
                        {%- endif %}
                        then named_struct('v', lineaged.{{ name }})
                end,
                true
            ) over lineage_order).v
        end as {{ name }}{{ ',' if not loop.last }}
        {%- endfor %}
    from lineaged
    window lineage_order as (
        partition by lineaged.lineage
        order by lineaged.order_key, lineaged.row_exists
        rows between unbounded preceding and current row
    )
    {%- endif %}
{%- endmacro %}
