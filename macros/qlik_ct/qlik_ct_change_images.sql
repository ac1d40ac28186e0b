{% macro qlik_ct_change_images(table_name) %}
    {#- The body of int_<table>__change_images for a Qlik change table: one row per image of
        a change, typed, in the seed 000 layout:
          I, U  the row after the change;   D  the deleted row;
          K     the old key of a U that changed the key (from its before-image), ending it;
          B     the before-image of a U (is_before_image), for the seed's left outer join;
          T     a TRUNCATE: no key, no values;
        and the full loads as int_qlik_ct__changes_logged holds them (its snapshot rows,
        typed back from text as every log's images are: cdc_log_image_kinds): the
        baseline's inserts at order_key 000...0, and each reload's TRUNCATE and inserts
        at its position. The log, not the landed folder: a reload replaces the folder.

        Each valid change row is paired once with its B row (same change_seq) and unfolds
        into its images with one generator. Incremental (append): a run images the rows
        staged after the newest imaged one (cdc_watermark), pairs them with the staged
        B rows (those at or after the first new change_seq: no other can pair), and adds
        the K and B images of earlier U rows whose B row arrived only now (a late
        before-image), so the images equal a full rebuild's; a run with nothing
        newly staged pairs nothing. Logged full-load rows not imaged yet are appended too
        (a full load landed after the first build, a reload). A run with nothing newly
        staged and every logged full-load row imaged is skipped (cdc_nothing_new). With
        duplicate_resolution latest_load, a run that stages a row superseding a staged one
        (flag supersedes_staged) images every staged row again, the table emptied first
        (cdc_append_reset). -#}
    {%- set columns = cdc_history.cdc_table_columns(table_name) -%}
    {%- set names = columns | map(attribute='name') | list -%}
    {%- set order_scope = 'qlik:' ~ cdc_history.cdc_var('qlik_ct_task') -%}
    {%- if not execute -%}
        {#- the full-load folder is an input (cdc_inputs_digest), the log's full loads
            are read from: the log is ignored there (table_change_images) -#}
-- depends_on: {{ ref('stg_qlik_ct__' ~ table_name ~ '_baseline') }}
    {%- endif -%}
    {#- nothing staged or landed since the last write read its inputs: skipped unread -#}
    {%- if cdc_history.cdc_inputs_unchanged() -%}
        {{ return(cdc_history.cdc_nothing_new()) }}
    {%- endif -%}
    {%- set watermark = cdc_history.cdc_watermark(ref('stg_qlik_ct__' ~ table_name), first_of='order_key') -%}
    {%- set since = watermark.since -%}
    {#- duplicate_resolution latest_load: a newly staged row that supersedes a staged one
        takes that one's images away, so the images are built again from every staged row
        (the cdc_append_reset pre-hook, which table_change_images adds, empties the
        table first) -#}
    {%- set latest_load = cdc_history.qlik_ct_keeps_latest_load(table_name) -%}
    {%- if latest_load and since and watermark.newer > 0 and run_query(
        'select count(*) from ' ~ ref('stg_qlik_ct__' ~ table_name)
        ~ " where array_contains(flags, 'supersedes_staged') and loaded_at > timestamp "
        ~ cdc_history.sql_string_literal(since)
    ).columns[0].values()[0] > 0 -%}
        {%- do log('cdc: ' ~ this ~ ': rebuilt: a newly staged row supersedes a staged one',
                   info=true) -%}
        {%- set since = none -%}
    {%- endif -%}
    {#- for the pre-hook cdc_append_reset (a run skipped as inputs unchanged runs no hook) -#}
    {%- if latest_load and execute and model.resource_type == 'model' -%}
        {%- do graph.setdefault('cdc_append_plans', {}).update(
            {model.unique_id: 'append' if since else 'rebuild'}) -%}
    {%- endif -%}
    {%- set nothing_new = since and watermark.newer == 0 -%}
    {#- the first change_seq staged since (appending only): a new row's B row, and a late B
        row's U, share its change_seq, so neither lies before it; bounding both reads by it
        lets Parquet skip the files older runs staged (whose change_seqs all lie before it
        when changes land in order), instead of reading every staged row each run -#}
    {%- set first_new = watermark.first if since else none -%}
    {%- set snapshot_rows_sql -%}
    select logged.*
    from {{ ref('int_qlik_ct__changes_logged') }} as logged
    where
        logged.source_table = {{ cdc_history.sql_string_literal(table_name) }}
        {#- the full loads' partitions only (qlik_ct_log_bucket, qlik_ct_reload_rows) #}
        and (
            logged.log_bucket = {{ cdc_history.sql_string_literal(
                '0' * (cdc_history.cdc_var('history_bucket_length', 8) | int)) }}
            or logged.log_bucket like 'reload-%'
        )
        and logged.is_snapshot
    {%- endset -%}
    {#- nothing newly staged and every logged full-load row imaged: the run is skipped -#}
    {%- if nothing_new and run_query(
        'select count(*) from (' ~ snapshot_rows_sql ~ ') as snapshot_rows'
        ~ ' left anti join ' ~ this ~ ' as imaged'
        ~ ' on imaged.order_key = snapshot_rows.order_key'
        ~ ' and imaged.change_id = snapshot_rows.change_id'
    ).columns[0].values()[0] == 0 -%}
        {{ return(cdc_history.cdc_nothing_new()) }}
    {%- endif %}
with

keyed as (

    select
        {{ cdc_history.cdc_pk_string_of_row(table_name, columns, 'staged') }} as pk_string,
        staged.*
    from {{ cdc_history.qlik_ct_staged_rows(table_name) }} as staged
    where staged.is_valid

),

new_rows as (

    select keyed.*
    from keyed
    {%- if nothing_new %}
    where false
    {%- elif since %}
    where keyed.loaded_at > timestamp {{ cdc_history.sql_string_literal(since) }}
    {%- endif %}

),

before_images as (

    select keyed.*
    from keyed
    where
        keyed.change_oper = 'B'
        {%- if first_new %}
        and keyed.order_key >= {{ cdc_history.sql_string_literal(first_new) }}
        {%- endif %}

),

pairs as (

    {# each new change row with its B row, whenever that landed #}
    select
        true as has_own_image,
        new_rows.* except (loaded_at),
        new_rows.loaded_at,
        before_images.pk_string as before_pk_string,
        {%- for name in names %}
        before_images.{{ name }} as before__{{ name }}{{ ',' if not loop.last }}
        {%- endfor %}
    from new_rows
    left join before_images
        on
            new_rows.change_oper = 'U'
            and new_rows.order_key = before_images.order_key
    where new_rows.is_truncate or new_rows.change_oper in ('I', 'U', 'D')
    {%- if since %}
    union all
    {# a late B row: the U it belongs to was imaged without it; add its K and B images #}
    select
        false as has_own_image,
        imaged_updates.* except (loaded_at),
        late_before_images.loaded_at,
        late_before_images.pk_string as before_pk_string,
        {%- for name in names %}
        late_before_images.{{ name }} as before__{{ name }}{{ ',' if not loop.last }}
        {%- endfor %}
    from keyed as imaged_updates
    inner join new_rows as late_before_images
        on
            imaged_updates.order_key = late_before_images.order_key
            and late_before_images.change_oper = 'B'
    where
        imaged_updates.change_oper = 'U'
        and imaged_updates.loaded_at <= timestamp {{ cdc_history.sql_string_literal(since) }}
        {%- if first_new %}
        and imaged_updates.order_key >= {{ cdc_history.sql_string_literal(first_new) }}
        {%- endif %}
    {%- endif %}

),

unfolded as (

    select
        pairs.order_key,
        pairs.change_seq_at,
        pairs.loaded_at,
        image.*
    from pairs
    lateral view inline(filter(
        array(
            {# the change's own image: I, U, D, or T without key and values #}
            case
                when pairs.has_own_image then {{ cdc_history.qlik_ct_image_struct(
                    columns, 'pairs.',
                    "case when pairs.is_truncate then 'T' else pairs.change_oper end",
                    'pairs.pk_string', 'false',
                    "not pairs.is_truncate and pairs.change_oper != 'D'",
                    'pairs.is_truncate'
                ) }}
            end,
            {# K: a U that changed the key ends the old key with its before-image #}
            case
                when pairs.before_pk_string != pairs.pk_string
                    then {{ cdc_history.qlik_ct_image_struct(
                        columns, 'pairs.before__', "'K'", 'pairs.before_pk_string',
                        'false', 'false', 'false'
                    ) }}
            end,
            {# B: the before-image of a U, at the same order_key #}
            case
                when pairs.before_pk_string is not null
                    then {{ cdc_history.qlik_ct_image_struct(
                        columns, 'pairs.before__', "'B'", 'pairs.before_pk_string',
                        'true', 'true', 'false'
                    ) }}
            end
        ),
        unfolded_image -> unfolded_image is not null
    )) image

),

change_images as (

    select
        sha2(concat_ws(
            '|', 'qlik_ct', {{ cdc_history.sql_string_literal(order_scope) }},
            unfolded.order_key, '0'
        ), 256) as change_id,
        unfolded.order_key,
        unfolded.change_seq_at as effective_at,
        unfolded.* except (order_key, change_seq_at, loaded_at),
        unfolded.loaded_at
    from unfolded

),

snapshot_rows as (

    {# the logged full loads: the baseline, and each reload (a TRUNCATE and its rows) #}
{{ snapshot_rows_sql }}
    {%- if since %}
        and not exists (
            select 1 from {{ this }} as imaged
            where
                imaged.order_key = logged.order_key
                and imaged.change_id = logged.change_id
        )
    {%- endif %}

),

snapshot_images as (

    select
        snapshot_rows.change_id,
        snapshot_rows.order_key,
        snapshot_rows.effective_at,
        image.image_oper,
        image.pk_string,
        image.is_before_image,
        image.row_exists,
        {%- for name in names %}
        image.{{ name }},
        {%- endfor %}
        image.image_complete,
        image.present_columns,
        current_timestamp() as loaded_at
    from snapshot_rows
    {{ cdc_history.cdc_log_images_lateral_view('snapshot_rows', columns) }}

),

images as (

    select * from change_images
    union all
    select * from snapshot_images

)

select
    images.change_id,
    'qlik_ct' as source_system,
    {{ cdc_history.sql_string_literal(table_name) }} as source_table,
    {{ cdc_history.sql_string_literal(order_scope) }} as order_scope,
    images.order_key,
    images.effective_at,
    images.pk_string,
    images.image_oper,
    images.is_before_image,
    images.row_exists,
    {%- for name in names %}
    images.{{ name }},
    {%- endfor %}
    images.image_complete,
    images.present_columns,
    images.loaded_at
from images
{%- endmacro %}
