{% macro qlik_ct_remember_log_marks(marks) %}
    {#- Hands int_qlik_ct__changes_logged's marks (table properties
        cdc.logged_through.<table>: the newest load time, in microseconds since the epoch,
        of the staged rows its write has read; '' when unknown) to cdc_write_finished
        through the memo `cdc_written_properties`, so they are recorded only when the
        write completes. qlik_ct_log_buckets_to_write sets them and reads them on the
        next run instead of reading the log. -#}
    {%- if execute and model.resource_type == 'model' and marks -%}
        {%- set key = model.unique_id ~ '@' ~ invocation_id -%}
        {%- set memo = graph.setdefault('cdc_written_properties', {}) -%}
        {%- set merged = memo.get(key, {}) -%}
        {%- do merged.update(marks) -%}
        {%- do memo.update({key: merged}) -%}
    {%- endif -%}
{% endmacro %}
