{% macro cdc_state_images(table_name, images, columns, has_truncates=false) %}
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
        the state itself. A T image carries no column: like a delete's tombstone it shows
        the state it ends (spec F.5: a TRUNCATE tombstones every live key, and a tombstone
        keeps the last state), the key's columns included.

        A TRUNCATE ends every key's generation only if the caller puts it in each key's
        partition (history_rebuild_events and history_known add a T row per key, and say so
        with has_truncates) or drops the images before it (point_in_time_query keeps only
        the images after the last TRUNCATE). With has_truncates and complete images (no
        merge window), each per-key T row takes its values from the key's last other image
        before it: one window over the key's images, ordered as history_versions orders the
        states, so Spark shuffles and sorts them once for both.

        With ignore_null_updates (cdc_history_options), a NULL that an update (U) carries in
        an ignored column counts as not carried: the state keeps the column's previous
        value. The window recomputes every state from the images, so a late earlier image
        re-coalesces the states after it.

        The window runs only where it is needed: when the table's images are complete and
        no column ignores NULL updates (cdc_states_are_images), the state is the image
        itself, with no window. The same holds when the images are not complete by
        configuration but the table holds none that lacks a column, and the key-move steps
        below are left out when it holds no key move (cdc_image_kind_flags, recorded at
        each write of the images). A query left without a step checks each image it reads
        for the kind the step is for, and stops with an error naming the table if one is
        there (an image written after the view or function was created: the next run
        creates it again), so a left-out step never gives a wrong state.

        A U that changed the key (spec F.5 step 2) continues the old key's state: its K image
        (same change_id, the old key's tombstone) ends the old key's generation and the U
        starts the new key's, and both generations are one lineage, so a column the U's image
        lacks keeps the old key's value. The U starts a generation even when no
        non-existing image of the new key precedes it (the new key's D or K not landed yet):
        the images before it are an earlier generation of the key, never the moved row's.
        Lineages follow chains of key moves (A to B to C)
        back to the generation they start from, over the key moves alone, by pointer
        doubling: step k knows each generation's ancestor 2^k moves back, so
        var key_move_chain_limit (cdc_key_move_chain_limit: default 64, rounded up to a
        power of two) takes log2 of it steps; a longer chain stops the query with an error
        naming the key and the var, rather than cutting it. Fewer steps where the table
        holds fewer K images than the limit (key_move_count, recorded with the kinds): no
        chain is longer than its moves, so one or two K images need no step or one, and a
        chain longer than the steps follow (K images written after the query was
        compiled) stops the query with the error of a left-out step. Unrolled steps, not a
        recursive CTE: Spark runs a recursive CTE as a loop of jobs, 3 to 4 s for every
        evaluation of a point in time even with one key move (BENCHMARKS.md section 13).
        The window then runs per lineage instead of per generation.
    -#}
    {%- if images is none or images == '' -%}
        {{ exceptions.raise_compiler_error("cdc_state_images: images (a CTE name) is required") }}
    {%- endif -%}
    {%- set names = columns | map(attribute='name') | list -%}
    {%- set ignore_null = cdc_history.cdc_history_options(table_name, columns).ignore_null -%}
    {#- the query is indented to stand as a CTE body: `    {{ cdc_state_images(...) }}` -#}
    {%- set chain_limit = cdc_history.cdc_key_move_chain_limit() -%}
    {#- pointer doubling follows 2^steps moves: the limit rounded up to a power of two #}
    {%- set steps = (chain_limit - 1).bit_length() -%}
    {%- set configured_as_images = cdc_history.cdc_states_are_images(table_name, columns) -%}
    {%- set kinds = {'partial_images': false, 'key_moves': false} if configured_as_images
        else cdc_history.cdc_image_kind_flags(table_name) -%}
    {#- no chain is longer than the table's K images (each key move leaves one): with n
        recorded, log2(n) steps follow every chain; more K images written since make a
        longer chain possible, which the last step finds (stale, below) -#}
    {%- set known_moves = kinds.get('key_move_count') -%}
    {%- set bounded = known_moves is not none and known_moves > 0
        and (known_moves - 1).bit_length() < steps -%}
    {%- if bounded -%}
        {%- set steps = (known_moves - 1).bit_length() -%}
    {%- endif -%}
    {%- set followed = 2 ** steps -%}
    {%- set states_are_images = configured_as_images
        or not kinds.partial_images and not ignore_null -%}
    {#- an image of the kind a left-out step is for stops the query (see above): a K
        image where the key-move steps are left out, an image lacking columns (not a
        TRUNCATE's) where the merge is -#}
    {%- set stale = table_name ~ ': int_' ~ table_name ~ '__change_images holds {} written'
        ~ ' after this query was compiled; run cdc-dbt run again to create its views and'
        ~ ' functions anew' -%}
    {%- if states_are_images -%}
        {%- set unexpected = images ~ ".image_oper != 'T' and not " ~ images ~ '.image_complete' -%}
        {%- set what = 'an image lacking columns' -%}
    {%- else -%}
        {%- set unexpected = images ~ ".image_oper = 'K'" -%}
        {%- set what = 'a key move' -%}
    {%- endif -%}
    {%- set guard = 'case when ' ~ unexpected ~ ' then raise_error('
        ~ cdc_history.sql_string_literal(stale.format(what)) ~ ') else true end' -%}
    {%- if states_are_images and not has_truncates -%}
    select * from {{ images }}
    {%- if not configured_as_images %}
    where {{ guard }}
    {%- endif %}
    {%- elif states_are_images -%}
    select
        ended_states.* except ({{ names | join(', ') }}, ended),
        {%- for name in names %}
        case
            when ended_states.image_oper = 'T' then ended_states.ended.{{ name }}
            else ended_states.{{ name }}
        end as {{ name }}{{ ',' if not loop.last }}
        {%- endfor %}
    from (
        {#- the state each per-key T row ends: its key's last other image before it, by
            the window history_versions orders the states with (so Spark sorts once) #}
        select
            {{ images }}.*,
            last(
                case
                    when {{ images }}.image_oper != 'T' then named_struct(
                        {%- for name in names %}
                        {{ cdc_history.sql_string_literal(name) }}, {{ images }}.{{ name }}
                        {{- ',' if not loop.last }}
                        {%- endfor %}
                    )
                end,
                true
            ) over (
                partition by {{ images }}.pk_string
                order by {{ images }}.order_key, {{ images }}.row_exists
                rows between unbounded preceding and 1 preceding
            ) as ended
        from {{ images }}
        {%- if not configured_as_images %}
        where {{ guard }}
        {%- endif %}
    ) as ended_states
    {%- else -%}
    with

    flagged_images as (
        {%- if kinds.key_moves %}

        {#- a U moved its key when its change (change_id, order_key) also left a K image,
            the old key's tombstone: a window over the change's images, not a join, so the
            images are read once here #}
        select
            key_images.*,
            key_images.image_oper = 'U'
            and count_if(
                key_images.image_oper = 'K'
                and key_images.change_id is not null
                and key_images.order_key is not null
            ) over (
                partition by key_images.change_id, key_images.order_key
            ) > 0 as moves_key
        from {{ images }} as key_images
        {%- else %}

        {#- no key move among the table's images (cdc_image_kind_flags): no U moves its
            key, and the steps that follow key moves are left out below #}
        select
            {{ images }}.*,
            false as moves_key
        from {{ images }}
        where {{ guard }}
        {%- endif %}

    ),

    generations as (

        {#- a generation ends after a non-existing image and starts at a key-moving U #}
        select
            flagged_images.*,
            named_struct(
                'pk_string', flagged_images.pk_string,
                'generation', count_if(not flagged_images.row_exists) over (
                    partition by flagged_images.pk_string
                    order by flagged_images.order_key, flagged_images.row_exists
                    rows between unbounded preceding and 1 preceding
                ) + count_if(flagged_images.moves_key) over (
                    partition by flagged_images.pk_string
                    order by flagged_images.order_key, flagged_images.row_exists
                    rows between unbounded preceding and current row
                )
            ) as generation
        from flagged_images

    ),

    {%- if kinds.key_moves %}

    key_moves as (

        {#- the generation a key-changing U starts continues the one its change's K image
            ends (a window over the change's images, not a self-join: in a view or function
            Spark would copy the generations' whole plan into each side); a generation
            holds at most one such U, its first image (min only guards). Only the K
            images and the key-moving U's are shuffled for it: any other U's change left no
            K image, so it has no predecessor #}
        select
            paired.generation,
            paired.predecessor
        from (
            select
                generations.generation,
                generations.image_oper,
                min(
                    case
                        when
                            generations.image_oper = 'K'
                            and generations.change_id is not null
                            and generations.order_key is not null
                            then generations.generation
                    end
                ) over (
                    partition by generations.change_id, generations.order_key
                ) as predecessor
            from generations
            where generations.image_oper = 'K' or generations.moves_key
        ) as paired
        where paired.image_oper = 'U' and paired.predecessor is not null

    ),

    {# Each moved-to generation's lineage, by pointer doubling: ancestors_<k> holds, per
        generation with a predecessor (node), its ancestor 2^k moves back or, if the chain
        is shorter, the generation it starts from (up). A step reads the step before once
        (a generation's row and, through `inline`, a row at its ancestor, partitioned by
        generation): a join of a step with itself would copy the plan of every step
        before it, and of the images, into the query. #}
    ancestors_0 as (

        select
            key_moves.generation as node,
            key_moves.predecessor as up
        from key_moves

    ),
    {%- for step in range(1, steps + 2) %}

    {# step {{ step }}: each node's ancestor's ancestor (up_of_up: NULL where the ancestor
        starts its chain, having no row of its own){{
        ', then what remains beyond the limit' if step > steps else '' }} #}
    hops_{{ step }} as (

        select
            hop.node,
            hop.up,
            hop.is_pointer,
            max(case when not hop.is_pointer then hop.up end) over (
                partition by hop.at
            ) as up_of_up
        from ancestors_{{ step - 1 }}
        lateral view inline(array(
            named_struct(
                'at', ancestors_{{ step - 1 }}.node,
                'node', ancestors_{{ step - 1 }}.node,
                'up', ancestors_{{ step - 1 }}.up,
                'is_pointer', false
            ),
            named_struct(
                'at', ancestors_{{ step - 1 }}.up,
                'node', ancestors_{{ step - 1 }}.node,
                'up', ancestors_{{ step - 1 }}.up,
                'is_pointer', true
            )
        )) hop

    ),
    {%- if step <= steps %}

    ancestors_{{ step }} as (

        select
            hops_{{ step }}.node,
            coalesce(hops_{{ step }}.up_of_up, hops_{{ step }}.up) as up
        from hops_{{ step }}
        where hops_{{ step }}.is_pointer

    ),
    {%- endif %}
    {%- endfor %}

    lineages as (

        {#- after the last step every node's up starts its chain, unless the chain is
            longer than 2^steps moves #}
        select
            hops_{{ steps + 1 }}.node as generation,
            case
                when hops_{{ steps + 1 }}.up_of_up is null
                    then hops_{{ steps + 1 }}.up
                {%- if bounded %}
                else raise_error({{ cdc_history.sql_string_literal(stale.format(
                    'a chain of more than ' ~ followed ~ ' key moves')) }})
                {%- else %}
                else raise_error(concat(
                    {{ cdc_history.sql_string_literal(
                        table_name ~ ': more than ' ~ followed ~ ' key moves in a'
                        ~ ' row (key updates, each continuing the last) lead to key ') }},
                    hops_{{ steps + 1 }}.node.pk_string,
                    {{ cdc_history.sql_string_literal(
                        '; raise var key_move_chain_limit (now ' ~ chain_limit ~ ')') }}
                ))
                {%- endif %}
            end as lineage
        from hops_{{ steps + 1 }}
        where hops_{{ steps + 1 }}.is_pointer

    ),

    lineaged as (

        select
            generations.*,
            coalesce(lineages.lineage, generations.generation) as lineage
        from generations
        left join lineages
            on generations.generation = lineages.generation

    )
    {%- else %}

    lineaged as (

        {#- without key moves a lineage is one generation #}
        select
            generations.*,
            generations.generation as lineage
        from generations

    )
    {%- endif %}

    select
        lineaged.* except (moves_key, generation, lineage, {{ names | join(', ') }}),
        {%- for name in names %}
        (last(
            case
                when
                    lineaged.image_oper != 'T'
                    and (
                        lineaged.image_complete
                        or array_contains(
                            lineaged.present_columns,
                            {{ cdc_history.sql_string_literal(name) }}
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
        ) over lineage_order).v as {{ name }}{{ ',' if not loop.last }}
        {%- endfor %}
    from lineaged
    window lineage_order as (
        {#- without key moves a lineage holds one key's images, which the generations
            are partitioned by already: with pk_string first the window needs no shuffle of
            its own #}
        partition by {{ 'lineaged.pk_string, ' if not kinds.key_moves }}lineaged.lineage
        order by lineaged.order_key, lineaged.row_exists
        rows between unbounded preceding and current row
    )
    {%- endif %}
{%- endmacro %}
