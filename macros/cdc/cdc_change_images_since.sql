{% macro cdc_change_images_since() %}
    {#- The watermark of an incremental int_<table>__change_images run: the newest loaded_at
        it holds, as text, or none for a full build (first run, --full-refresh, a unit
        test, or an empty table). A format's <source_system>_change_images images only what
        was staged or logged after it. -#}
    {%- if execute and model.resource_type == 'model' and is_incremental() -%}
        {%- set newest = run_query(
            'select cast(max(loaded_at) as string) from ' ~ this
        ).columns[0].values()[0] -%}
        {{ return(newest) }}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}
