{% macro cdc_write_finished() %}
    {#- post-hook: the write recorded by cdc_write_started has completed. Records which write
        this was (cdc.written: the invocation id, for the models that read this table) and
        the digest of the inputs it read (cdc.inputs: cdc_inputs_digest, '' when it cannot
        be told), so a later run whose inputs are unchanged skips the model without a query
        (cdc_inputs_unchanged), and the project's code it was written by (cdc.code:
        CDC_CODE_FINGERPRINT, '' without it), so an append model planned by
        cdc_append_plan rebuilds once the code changes. -#}
    {%- if execute and model.resource_type == 'model' -%}
        {%- do run_query(cdc_set_table_properties(this, {
            'cdc.write': 'finished',
            'cdc.written': invocation_id,
            'cdc.inputs': cdc_inputs_digest() or '',
            'cdc.code': env_var('CDC_CODE_FINGERPRINT', '')})) -%}
        {%- do cdc_remember_written(this, invocation_id) -%}
    {%- endif -%}
    select 1 as write_finished
{% endmacro %}
