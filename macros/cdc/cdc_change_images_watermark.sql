{% macro cdc_change_images_watermark(upstream, condition='true') %}
    {#- The watermark of an incremental int_<table>__change_images run, in one query:
        {'since': the newest loaded_at it holds, as text, 'newer': how many rows of
        `upstream` (its staging table, or its format's canonical log; those matching
        `condition`, SQL over the alias `upstream`) were loaded after it}. since is none for
        a full build (first run, --full-refresh, a unit test, or an empty table): then
        newer is none too and everything is imaged. A format's
        <source_system>_change_images images only what was loaded after since, and a run
        whose newer is 0 has nothing new. -#}
    {%- if execute and model.resource_type == 'model' and is_incremental() -%}
        {%- set found = run_query(
            'select cast(max(loaded_at) as string) as since,'
            ~ ' (select count(*) from ' ~ upstream ~ ' as upstream'
            ~ ' where (' ~ condition ~ ') and upstream.loaded_at >'
            ~ ' (select max(loaded_at) from ' ~ this ~ ')) as newer'
            ~ ' from ' ~ this
        ).rows[0] -%}
        {%- if found[0] is not none -%}
            {{ return({'since': found[0], 'newer': found[1]}) }}
        {%- endif -%}
    {%- endif -%}
    {{ return({'since': none, 'newer': none}) }}
{% endmacro %}
