{% macro history_known(table_name) %}
    {#- The whole body of int_<table>__history_known, the record of system time of a table
        with history option bitemporal (docs/history-options.md, "Bitemporal history"): what
        dim_<table>_history said about each key, and from when. Append-only: one row per
        fact learned (is_known) or given up (not is_known), a fact being one version row of
        the history (every column of dim_<table>_history, identified by version_hash), at
        known_at, the load time (loaded_at) of the images that taught it.

        A key is learned about whenever images of it are loaded (a TRUNCATE: every key seen
        before it). For each key and each of its load times after the last recorded one,
        the key's history is computed from the images loaded by then (a replica: its key and
        change ids prefixed with the load time, so that the state and version windows of
        cdc_state_images and history_versions, which partition by key and pair key moves by
        change id, keep replicas apart), with the table's history options. Where states
        merge over lineages (partial images, ignored NULL updates: cdc_states_are_images)
        and the table has key moves, a key continues the state of the key it moved from, so
        a replica then holds every key's images, and every key seen by then is learned
        about at each load time: a key move's halves (the old key's K image, the new key's
        U) may be loaded apart, and then an image of one key changes the versions of
        another, and of the keys it moved on to. Such a table pays for all its images and
        compares all its keys with the record each run. The facts of a
        replica that the one before it (or, for the first, the record) lacks are learned at
        its load time; the facts it lacks are given up then. So a first build replays every
        load time the images hold, and a run reads only the keys with new images.

        Never rebuilt: the record is what the warehouse said, which no rebuild can know
        again, so --full-refresh leaves it (full_refresh=false), and a run with no new
        image is skipped (cdc_nothing_new). A rebuild upstream (a --full-refresh of the
        images, a late full snapshot) shows up as the facts it changes, learned at the new
        images' load time. Disabled unless the table is in var cdc_tables with bitemporal
        true. -#}
    {%- set table = cdc_history.cdc_table_config(table_name) if table_name in cdc_history.cdc_var('cdc_tables') else {} -%}
    {%- if not table.get('bitemporal', false) -%}
        {{ config(enabled=false) }}
    {%- else -%}
    {{ config(
        materialized='incremental',
        incremental_strategy='append',
        full_refresh=false,
        on_schema_change='fail',
        pre_hook=["{{ cdc_history.cdc_write_started('loaded_at') }}"],
        post_hook=["{{ cdc_history.cdc_write_finished() }}"]
    ) }}
    {%- set images_relation = ref('int_' ~ table_name ~ '__change_images') -%}
    {%- if cdc_history.cdc_inputs_unchanged() -%}
        {{ return(cdc_history.cdc_nothing_new()) }}
    {%- endif -%}
    {%- set watermark = cdc_history.cdc_watermark(
        images_relation, 'not upstream.is_before_image', 'known_at') -%}
    {%- set since = watermark.since -%}
    {%- if since and watermark.newer == 0 -%}
        {{ return(cdc_history.cdc_nothing_new()) }}
    {%- endif -%}
    {%- set columns = cdc_history.cdc_table_columns(table_name) -%}
    {%- set names = columns | map(attribute='name') | list -%}
    {%- set options = cdc_history.cdc_history_options(table_name, columns) -%}
    {%- set newer_than = ' and images.loaded_at > timestamp ' ~ cdc_history.sql_string_literal(since)
        if since else '' -%}
    {#- the TRUNCATE fan-out only for a table with a TRUNCATE, and the keys a new one
        teaches about (an aggregate over every key) only when one was loaded since; key
        moves, for whole replicas -#}
    {%- set found = run_query(
        "select count_if(images.image_oper = 'T'), count_if(images.image_oper = 'T'"
        ~ newer_than ~ "), count_if(images.image_oper = 'K') from " ~ images_relation
        ~ " as images where images.image_oper in ('T', 'K')"
    ).rows[0] if execute and model.resource_type == 'model' else [0, 0, 0] -%}
    {%- set has_truncates = found[0] > 0 -%}
    {%- set has_new_truncates = found[1] > 0 -%}
    {#- where states merge over lineages (cdc_states_are_images false), a key moved to
        continues the state of the key it moved from: a replica then holds every key's
        images (one replica per load time), not the touched key's alone -#}
    {%- set whole_replicas = found[2] > 0 and not cdc_history.cdc_states_are_images(table_name, columns) -%}
    {%- set fact_columns = ['pk_string'] + names + [
        'is_deleted', 'valid_from', 'valid_to', 'valid_from_order_key',
        'valid_to_order_key', 'change_op', 'change_id', 'order_scope',
        'change_loaded_at'] -%}
    {#- a replica's prefix: its load time in microseconds, 20 digits, and '|' -#}
    {%- set prefix_length = 21 %}
with

images as (

    select *
    from {{ images_relation }}
    where not is_before_image

),

new_load_times as (

    {%- if whole_replicas %}
    {# every key seen by each load time after the record's newest (the keys with images
       then among them): a key move loaded in two halves changes the versions of keys
       that had no image then #}
    select distinct
        seen.pk_string,
        loads.known_at
    from (
        select distinct images.loaded_at as known_at
        from images
        where images.loaded_at is not null{{ newer_than }}
    ) as loads
    inner join images as seen
        on seen.loaded_at <= loads.known_at
    where seen.pk_string is not null
    {%- else %}
    {# each key's load times after the record's newest: when the warehouse learned about it #}
    select distinct
        images.pk_string,
        images.loaded_at as known_at
    from images
    where images.pk_string is not null{{ newer_than }}
    {%- endif %}
    {%- if has_new_truncates %}
    union
    select
        keys_seen.pk_string,
        images.loaded_at as known_at
    from images
    inner join (
        select
            seen.pk_string,
            min(seen.order_key) as first_order_key
        from images as seen
        where seen.pk_string is not null
        group by seen.pk_string
    ) as keys_seen
        on keys_seen.first_order_key < images.order_key
    where images.image_oper = 'T'{{ newer_than }}
    {%- endif %}

),

load_times as (

    select
        new_load_times.*,
        concat(
            lpad(cast(unix_micros(new_load_times.known_at) as string), 20, '0'), '|'
        ) as replica,
        dense_rank() over (
            partition by new_load_times.pk_string order by new_load_times.known_at
        ) as load_number
    from new_load_times

),

{%- if whole_replicas %}

replica_load_times as (

    select distinct load_times.known_at, load_times.replica
    from load_times

),
{%- endif %}

replica_images as (

    {# the key's images (whole replicas: every key's) as the warehouse held them at
       each new load time #}
    select
        concat(load_times.replica, images.change_id) as change_id,
        images.source_system,
        images.source_table,
        images.order_scope,
        images.order_key,
        images.effective_at,
        concat(load_times.replica, images.pk_string) as pk_string,
        images.* except (
            change_id, source_system, source_table, order_scope, order_key,
            effective_at, pk_string
        )
    {%- if whole_replicas %}
    from replica_load_times as load_times
    inner join images
        on images.loaded_at <= load_times.known_at
    {%- else %}
    from load_times
    inner join images
        on
            images.pk_string = load_times.pk_string
            and images.loaded_at <= load_times.known_at
    {%- endif %}

),
{%- if has_truncates %}

replica_first_seen as (

    select
        replica_images.pk_string,
        min(replica_images.order_key) as first_order_key
    from replica_images
    group by replica_images.pk_string

),

replay as (

    {# a TRUNCATE held by a replica ends each of its keys seen before it #}
    select * from replica_images
    union all
    select
        concat(load_times.replica, truncates.change_id) as change_id,
        truncates.source_system,
        truncates.source_table,
        truncates.order_scope,
        truncates.order_key,
        truncates.effective_at,
        replica_first_seen.pk_string,
        truncates.* except (
            change_id, source_system, source_table, order_scope, order_key,
            effective_at, pk_string
        )
    {%- if whole_replicas %}
    from replica_load_times as load_times
    {%- else %}
    from load_times
    {%- endif %}
    inner join images as truncates
        on
            truncates.image_oper = 'T'
            and truncates.loaded_at <= load_times.known_at
    inner join replica_first_seen
        on
            {%- if whole_replicas %}
            startswith(replica_first_seen.pk_string, load_times.replica)
            {%- else %}
            replica_first_seen.pk_string
            = concat(load_times.replica, load_times.pk_string)
            {%- endif %}
            and replica_first_seen.first_order_key < truncates.order_key

),
{%- else %}

replay as (

    select * from replica_images

),
{%- endif %}

states as (

    {{ cdc_history.cdc_state_images(table_name, 'replay', columns, has_truncates=has_truncates) }}

),

{{ cdc_history.history_versions('states', columns, 8, options.tracked) }},

replicas as (

    {# each replica's versions, its key and change ids without the prefix #}
    select
        timestamp_micros(cast(substr(final.pk_string, 1, 20) as bigint)) as known_at,
        substr(final.pk_string, {{ prefix_length + 1 }}) as pk_string,
        final.* except (pk_string, change_id, is_current, valid_to_bucket),
        substr(final.change_id, {{ prefix_length + 1 }}) as change_id
    from final

),

facts as (

    select
        {%- for name in fact_columns %}
        replicas.{{ name }},
        {%- endfor %}
        sha2(to_json(named_struct(
            {%- for name in fact_columns %}
            {{ cdc_history.sql_string_literal(name) }}, replicas.{{ name }}{{ ',' if not loop.last }}
            {%- endfor %}
        )), 256) as version_hash,
        load_times.load_number
    from replicas
    inner join load_times
        on
            replicas.pk_string = load_times.pk_string
            and replicas.known_at = load_times.known_at
    {%- if since %}
    union all
    {# what the record says now of the keys learned about (load_number 0): each fact's
       latest row, where it is known #}
    select
        {%- for name in fact_columns %}
        recorded.latest.{{ name }},
        {%- endfor %}
        recorded.version_hash,
        0 as load_number
    from (
        select
            known.version_hash,
            max_by(struct(known.*), known.known_at) as latest
        from {{ this }} as known
        left semi join new_load_times
            on new_load_times.pk_string = known.pk_string
        group by known.pk_string, known.version_hash
    ) as recorded
    where recorded.latest.is_known
    {%- endif %}

),

held as (

    select
        facts.*,
        lag(facts.load_number) over fact_order as previous_load_number,
        lead(facts.load_number) over fact_order as next_load_number
    from facts
    window fact_order as (
        partition by facts.pk_string, facts.version_hash
        order by facts.load_number
    )

),

learned as (

    {# a fact held at a load time and not at the one before #}
    select
        held.* except (load_number, previous_load_number, next_load_number),
        load_times.known_at,
        true as is_known
    from held
    inner join load_times
        on
            held.pk_string = load_times.pk_string
            and held.load_number = load_times.load_number
    where
        held.load_number >= 1
        and not coalesce(held.previous_load_number = held.load_number - 1, false)

),

given_up as (

    {# a fact held at a load time (or in the record) and not at the key's next one #}
    select
        held.* except (load_number, previous_load_number, next_load_number),
        load_times.known_at,
        false as is_known
    from held
    inner join load_times
        on
            held.pk_string = load_times.pk_string
            and held.load_number + 1 = load_times.load_number
    where not coalesce(held.next_load_number = held.load_number + 1, false)

)

select
    *,
    current_timestamp() as loaded_at
from learned
union all
select
    *,
    current_timestamp() as loaded_at
from given_up
    {%- endif -%}
{%- endmacro %}
