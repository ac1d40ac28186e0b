{% macro cdc_watermark(upstream, condition='true', mark_column='loaded_at') %}
    {#- The watermark of an incremental model that takes only what its upstream loaded since
        its last run, in one query: {'since': the newest `mark_column` of this model's
        table, as text, 'newer': how many rows of `upstream` (those matching `condition`,
        SQL over the alias `upstream`) have a loaded_at after it}. since is none for a full
        build (first run, --full-refresh, a unit test, or an empty table): then newer is
        none too. Readers: every format's int_<table>__change_images (upstream: its staging
        table or canonical log) and dim_<table>_history (history_plan: the images, marked
        by change_loaded_at); a run whose newer is 0 has nothing new. -#}
    {%- if execute and model.resource_type == 'model' and is_incremental() -%}
        {%- set found = run_query(
            'select cast(max(' ~ mark_column ~ ') as string) as since,'
            ~ ' (select count(*) from ' ~ upstream ~ ' as upstream'
            ~ ' where (' ~ condition ~ ') and upstream.loaded_at >'
            ~ ' (select max(' ~ mark_column ~ ') from ' ~ this ~ ')) as newer'
            ~ ' from ' ~ this
        ).rows[0] -%}
        {%- if found[0] is not none -%}
            {{ return({'since': found[0], 'newer': found[1]}) }}
        {%- endif -%}
    {%- endif -%}
    {{ return({'since': none, 'newer': none}) }}
{% endmacro %}
