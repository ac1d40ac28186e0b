{% macro cdc_watermark(upstream, condition='true', mark_column='loaded_at', first_of=none) %}
    {#- The watermark of an incremental model that takes only what its upstream loaded since
        its last run, in one query: {'since': the newest `mark_column` of this model's
        table, as text, 'newer': how many rows of `upstream` (those matching `condition`,
        SQL over the alias `upstream`) have a loaded_at after it}. since is none for a full
        build (first run, --full-refresh, a unit test, or an empty table): then newer is
        none too. Readers: every format's int_<table>__change_images (upstream: its staging
        table or canonical log) and dim_<table>_history (history_plan: the images, marked
        by change_loaded_at); a run whose newer is 0 has nothing new.
        first_of (a column of upstream, optional): 'first' is also returned, the least
        value of that column among those newer rows (as text; none when not asked, or
        none of them has one). A model can bound what else it reads of a table by it
        (qlik_ct_change_images: the before-images of the new rows lie at or after the
        first new change_seq), which lets Parquet skip the files of older runs. -#}
    {%- if execute and model.resource_type == 'model' and is_incremental() -%}
        {#- one read of upstream's newer rows, for the count and the least value -#}
        {%- set found = run_query(
            'select marked.since, newer.newer_rows'
            ~ (', newer.least_value' if first_of else '')
            ~ ' from (select cast(max(' ~ mark_column ~ ') as string) as since from '
            ~ this ~ ') as marked'
            ~ ' cross join (select count(*) as newer_rows'
            ~ (', cast(min(upstream.' ~ first_of ~ ') as string) as least_value' if first_of else '')
            ~ ' from ' ~ upstream ~ ' as upstream'
            ~ ' where (' ~ condition ~ ') and upstream.loaded_at >'
            ~ ' (select max(' ~ mark_column ~ ') from ' ~ this ~ ')) as newer'
        ).rows[0] -%}
        {%- if found[0] is not none -%}
            {{ return({'since': found[0], 'newer': found[1],
                       'first': found[2] if first_of else none}) }}
        {%- endif -%}
    {%- endif -%}
    {{ return({'since': none, 'newer': none, 'first': none}) }}
{% endmacro %}
