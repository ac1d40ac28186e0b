{% materialization table, adapter='spark', supported_languages=['sql', 'python'] -%}
    {#- dbt-spark's table materialization, with one shortcut: a SQL table whose fingerprint
        (cdc_table_fingerprint: the project's code, its compiled SQL and hooks, and what
        it reads, cdc_inputs_digest) is the one kept in its table properties is left as it
        is when no full refresh is asked for; the run reports it as "unchanged". Otherwise
        the table is built as dbt-spark builds it, and then its properties record the
        fingerprint and which write this was (cdc.written: the invocation id, or, with
        config meta cdc_written_by_content, a digest of its rows, so that a table rebuilt with
        the same rows, like the landed-file lists, leaves its readers unchanged). A run
        killed before that records nothing: the next run builds the table again. -#}
    {%- set fingerprint = cdc_history.cdc_table_fingerprint() if model['language'] == 'sql' else none -%}
    {%- set existing = load_cached_relation(this) -%}
    {%- if fingerprint and existing is not none and not existing.is_view
            and not should_full_refresh()
            and cdc_history.cdc_table_property(existing, 'cdc.fingerprint') == fingerprint -%}
        {%- call noop_statement('main', 'unchanged', 'OK', 0) -%}
            {{ compiled_code }}
        {%- endcall -%}
        {{ return({'relations': [this.incorporate(type='table')]}) }}
    {%- endif -%}
    {%- set result = dbt.materialization_table_spark() -%}
    {%- if model.resource_type == 'model' -%}
        {%- set written = invocation_id -%}
        {%- if (config.get('meta') or {}).get('cdc_written_by_content', false) -%}
            {%- set written = 'rows ' ~ run_query(
                'select concat(cast(count(*) as string), \':\','
                ~ ' coalesce(cast(sum(cast(xxhash64(*) as decimal(38, 0))) as string), \'0\'))'
                ~ ' from ' ~ this).columns[0].values()[0] -%}
        {%- endif -%}
        {%- call statement('cdc_table_fingerprint') -%}
            {{ cdc_history.cdc_set_table_properties(this, {
                'cdc.fingerprint': fingerprint or '', 'cdc.written': written}) }}
        {%- endcall -%}
        {%- do cdc_history.cdc_remember_written(this, written) -%}
        {#- described again for the views after it (dbt caches it undescribed) -#}
        {%- do cdc_history.cdc_cache_as_listed(this) -%}
    {%- endif -%}
    {{ return(result) }}
{%- endmaterialization %}
