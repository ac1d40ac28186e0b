{% macro cdc_inputs_unchanged() %}
    {#- True when the incremental model being built has nothing new without a query: its
        table exists (no full refresh), its last write finished and recorded the digest of
        its inputs (cdc.inputs), and that digest is what its inputs give now
        (cdc_inputs_digest: no ancestor table written since, no landed file changed).
        Callers then compile to cdc_nothing_new(); otherwise they plan as before. -#}
    {%- if not (execute and model.resource_type == 'model' and is_incremental()) -%}
        {{ return(false) }}
    {%- endif -%}
    {%- set recorded = cdc_history.cdc_table_property(this, 'cdc.inputs') -%}
    {%- if not recorded or cdc_history.cdc_table_property(this, 'cdc.write') != 'finished' -%}
        {{ return(false) }}
    {%- endif -%}
    {{ return(cdc_history.cdc_inputs_digest() == recorded) }}
{% endmacro %}
