{% materialization incremental, adapter='spark', supported_languages=['sql', 'python'] -%}
    {#- dbt-spark's incremental materialization, with one shortcut: a model whose compiled
        body is cdc_nothing_new() (it found nothing to add since its last run) is skipped
        when its table exists and no full refresh is asked for. No statement runs, neither
        its pre- nor post-hooks (the write guard marks nothing, because nothing is
        written) but, when its inputs changed since they were recorded, the digest of the
        inputs it is now up to date with (cdc.inputs, cdc_inputs_digest); the run reports
        it as "nothing new". Everything else is dbt-spark's own
        materialization, after which a table it created is described into the relation
        cache (cdc_cache_as_listed). -#}
    {%- set skip = model['language'] == 'sql'
        and (compiled_code | trim) == (cdc_nothing_new() | trim)
        and not should_full_refresh() -%}
    {%- if skip and load_relation(this) is not none -%}
        {#- up to date with its inputs as they are now: record their digest, so the next
            run with the same inputs decides without a query (cdc_inputs_unchanged) -#}
        {%- set inputs = cdc_inputs_digest() -%}
        {%- if inputs and cdc_table_property(this, 'cdc.write') == 'finished'
              and cdc_table_property(this, 'cdc.inputs') != inputs -%}
            {%- do run_query(cdc_set_table_properties(this, {'cdc.inputs': inputs})) -%}
        {%- endif -%}
        {%- call noop_statement('main', 'nothing new', 'OK', 0) -%}
            {{ compiled_code }}
        {%- endcall -%}
        {{ return({'relations': [this]}) }}
    {%- endif -%}
    {%- set result = dbt.materialization_incremental_spark() -%}
    {#- created or fully refreshed, dbt caches it undescribed: described again for the views
        after it (cdc_view_fingerprint). An incremental write keeps the columns
        (on_schema_change 'fail'), and dbt the description the run started with. -#}
    {%- set cached = adapter.get_relation(
        database=this.database, schema=this.schema, identifier=this.identifier) -%}
    {%- if cached is none or '\nSchema: ' not in (cached.information or '') -%}
        {%- do cdc_cache_as_listed(this) -%}
    {%- endif -%}
    {{ return(result) }}
{%- endmaterialization %}
