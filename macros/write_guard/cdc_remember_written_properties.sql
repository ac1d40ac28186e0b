{% macro cdc_remember_written_properties(properties) %}
    {#- Hands table properties for the model's current write to cdc_write_finished through
        the memo `cdc_written_properties` (keyed by the model and the invocation), so they
        are set only when the write completes, in the same statement as its record. Merges
        with what an earlier call left for the same write. Callers:
        cdc_record_image_kinds (cdc.partial_images, cdc.key_moves, cdc.key_move_count) and
        qlik_ct_log_buckets_to_write (cdc.logged_through.<table>). -#}
    {%- if execute and model.resource_type == 'model' and properties -%}
        {%- set key = model.unique_id ~ '@' ~ invocation_id -%}
        {%- set memo = graph.setdefault('cdc_written_properties', {}) -%}
        {%- set merged = memo.get(key, {}) -%}
        {%- do merged.update(properties) -%}
        {%- do memo.update({key: merged}) -%}
    {%- endif -%}
{% endmacro %}
