{% macro cdc_append_reset() %}
    {#- Pre-hook of a model planned by cdc_append_plan, after cdc_write_started: when the
        plan recorded for it in this invocation is a rebuild of an existing table, the
        table is emptied before the append writes every row again. First its write mark is
        cleared, so a run that dies before the write finishes leaves a table that the
        on-run-start repair (cdc_repair_interrupted_writes) takes back to empty, which the
        next run builds whole; then the table is truncated. An append of new rows (or a
        first build, or --full-refresh, which replace the table) does nothing here. -#}
    {%- if execute and model.resource_type == 'model' -%}
        {%- set plans = graph.get('cdc_append_plans', {}) -%}
        {%- if model.unique_id not in plans -%}
            {{ exceptions.raise_compiler_error(
                'cdc_append_reset: no append plan recorded for ' ~ model.unique_id
                ~ ' (cdc_append_plan records it when the model compiles)') }}
        {%- endif -%}
        {%- if plans[model.unique_id] == 'rebuild' and is_incremental() -%}
            {%- do run_query(cdc_history.cdc_set_table_properties(this, {'cdc.write.mark': ''})) -%}
            {%- do run_query('truncate table ' ~ this) -%}
        {%- endif -%}
    {%- endif -%}
{% endmacro %}
