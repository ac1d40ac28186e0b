{% macro history_plan(table_name) %}
    {#- How this run of dim_<table>_history builds (see history_from_changes):
        {'since': <timestamp text>, 'new_images': N} to recompute only the keys of the N images
        logged after it (none at all when N is 0), or {'since': none, 'has_truncates': bool}
        to rebuild the whole history (the TRUNCATE fan-out only when the table has a
        TRUNCATE). It is an increment only when the table
        exists (and this is not --full-refresh), has a watermark (its newest change_loaded_at),
        no new image is a TRUNCATE or lies at or before its key's current version (or, when
        versions absorb states in place, at or before its key's newest folded image; or, for a
        Qlik table with duplicate_resolution latest_load, at a position where a version
        starts or ends: it replaces a change; or, where states merge over lineages
        (cdc_states_are_images false), is one half of a key move whose other half was
        folded before: the old key's K image and the new key's U loaded apart, the U's key
        continues the old key's state, which an increment over the new image's key alone
        would miss), and its
        last write finished (a run killed during a partition overwrite leaves 'started',
        see cdc_write_started). It
        is computed once per run, when the model compiles; history_from_changes records the
        decision in the invocation's memo for its pre-hook (history_reset) and, for readers
        of the compiled SQL, in a comment. -#}
    {%- set plan = {'since': none, 'has_truncates': true} -%}
    {#- unit tests build from fixtures: always the whole history -#}
    {#- a write that began and never finished (cdc_write_started) left the partitions
        half overwritten: only a rebuild is sound -#}
    {%- set interrupted = execute and model.resource_type == 'model'
        and cdc_history.cdc_table_property(this, 'cdc.write') == 'started' -%}
    {%- if interrupted -%}
        {%- do log('cdc: ' ~ this ~ ': the last write never finished; rebuilding it', info=true) -%}
    {%- endif -%}
    {%- if execute and model.resource_type == 'model' and is_incremental() and not interrupted -%}
        {%- set images = ref('int_' ~ table_name ~ '__change_images') -%}
        {#- the watermark and whether any image is newer, in one query: a run with none
            (the usual no-op) needs nothing else -#}
        {%- set found = cdc_history.cdc_watermark(images, 'not upstream.is_before_image', 'change_loaded_at') -%}
        {%- set newest = found.since -%}
        {%- if newest is not none and found.newer == 0 -%}
            {%- do plan.update({'since': newest, 'new_images': 0}) -%}
        {%- elif newest is not none -%}
            {%- set watermark = "timestamp " ~ cdc_history.sql_string_literal(newest) -%}
            {#- a version that absorbed later states in place (cdc_history_options) starts
                before its latest state: an image is late when a folded image of its key
                is at or after it -#}
            {%- set absorbs = cdc_history.cdc_history_options(
                table_name, cdc_history.cdc_table_columns(table_name)).tracked is not none -%}
            {#- a table whose later loads replace staged changes (cdc_table_replaces_staged:
                a Qlik table keeping the latest load): an image at a position where a
                version starts or ends replaces the change there (its key may be another) -#}
            {%- set replaces = cdc_history.cdc_table_replaces_staged(table_name) -%}
            {#- a key move loaded in two halves: the new image's partner (same change_id
                and order_key, K for a U, U for a K) was folded already; looked for only
                where the table holds a K image (cdc_image_kind_flags) -#}
            {%- set splits_moves = cdc_history.cdc_image_kind_flags(table_name).key_moves
                and not cdc_history.cdc_states_are_images(table_name, cdc_history.cdc_table_columns(table_name)) -%}
            {%- set counts = run_query(
                "select count(*) as new_images, count_if(images.pk_string is null"
                ~ " or images.order_key <= current_versions.valid_from_order_key"
                ~ (" or images.order_key <= folded.order_key" if absorbs else "")
                ~ (" or applied.order_key is not null" if replaces else "")
                ~ (" or partners.order_key is not null" if splits_moves else "")
                ~ ") as late_images"
                ~ " from " ~ images ~ " as images"
                ~ " left join " ~ this ~ " as current_versions"
                ~ " on current_versions.pk_string = images.pk_string"
                ~ " and current_versions.valid_to_bucket = 'current'"
                ~ (" left join (select pk_string, max(order_key) as order_key from "
                   ~ images ~ " where not is_before_image and loaded_at <= " ~ watermark
                   ~ " group by pk_string) as folded"
                   ~ " on folded.pk_string = images.pk_string" if absorbs else "")
                ~ (" left join (select distinct order_key from (select valid_from_order_key"
                   ~ " as order_key from " ~ this ~ " union all select valid_to_order_key"
                   ~ " from " ~ this ~ ")) as applied on applied.order_key = images.order_key"
                   if replaces else "")
                ~ (" left join (select distinct change_id, order_key, image_oper from "
                   ~ images ~ " where image_oper in ('K', 'U') and not is_before_image"
                   ~ " and loaded_at <= " ~ watermark ~ ") as partners"
                   ~ " on partners.change_id = images.change_id"
                   ~ " and partners.order_key = images.order_key"
                   ~ " and images.image_oper in ('K', 'U')"
                   ~ " and partners.image_oper != images.image_oper" if splits_moves else "")
                ~ " where not images.is_before_image"
                ~ " and images.loaded_at > " ~ watermark
            ).rows[0] -%}
            {%- if counts[1] == 0 -%}
                {%- do plan.update({'since': newest, 'new_images': counts[0]}) -%}
            {%- endif -%}
        {%- endif -%}
    {%- endif -%}
    {%- set images = ref('int_' ~ table_name ~ '__change_images') -%}
    {%- if execute and model.resource_type == 'model' and plan.since is none
          and adapter.get_relation(images.database, images.schema, images.identifier) -%}
        {%- set truncates = run_query(
            "select count(*) from " ~ images ~ " where image_oper = 'T'"
        ).columns[0].values()[0] -%}
        {%- do plan.update({'has_truncates': truncates > 0}) -%}
    {%- endif -%}
    {{ return(plan) }}
{% endmacro %}
