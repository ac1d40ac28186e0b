{% macro cdc_write_finished() %}
    {#- post-hook: the write recorded by cdc_write_started has completed. Records which write
        this was (cdc.written: the invocation id, for the models that read this table) and
        the digest of the inputs it read (cdc.inputs: cdc_inputs_digest, '' when it cannot
        be told), so a later run whose inputs are unchanged skips the model without a query
        (cdc_inputs_unchanged), and the project's code it was written by (cdc.code:
        CDC_CODE_FINGERPRINT, '' without it), so an append model planned by
        cdc_append_plan rebuilds once the code changes; for such a model with an
        invalidating relation, also the newest row of it this write saw
        (cdc.invalidated_seen, from the plan's memo); and the properties the model left
        for this write through cdc_remember_written_properties (an earlier post-hook:
        cdc_record_image_kinds; its compilation: the Qlik log's marks), so they are set in
        the same statement. -#}
    {%- if execute and model.resource_type == 'model' -%}
        {%- set properties = {
            'cdc.write': 'finished',
            'cdc.written': invocation_id,
            'cdc.inputs': cdc_history.cdc_inputs_digest() or '',
            'cdc.code': env_var('CDC_CODE_FINGERPRINT', '')} -%}
        {%- set seen = graph.get('cdc_append_seen', {}) -%}
        {%- set memo_key = model.unique_id ~ '@' ~ invocation_id -%}
        {%- if memo_key in seen -%}
            {%- do properties.update({'cdc.invalidated_seen': seen[memo_key]}) -%}
        {%- endif -%}
        {%- do properties.update(graph.get('cdc_written_properties', {}).get(memo_key, {})) -%}
        {%- do run_query(cdc_history.cdc_set_table_properties(this, properties)) -%}
        {%- do cdc_history.cdc_remember_written(this, invocation_id) -%}
    {%- endif -%}
{% endmacro %}
