{% macro history_reset() %}
    {#- Pre-hook of dim_<table>_history: the partition overwrite mode of this run's write
        (cdc_partition_overwrite_mode), from the plan history_from_changes recorded for the
        model when it compiled (history_plan, in the invocation's memo): a rebuild of an
        existing history replaces every partition in one statement ('STATIC': no bucket
        keeps stale versions, and a failed rebuild leaves the old history in place); an
        increment only the partitions it writes ('DYNAMIC'). -#}
    {%- if execute and model.resource_type == 'model' -%}
        {%- set plans = graph.get('cdc_history_plans', {}) -%}
        {%- if model.unique_id not in plans -%}
            {{ exceptions.raise_compiler_error(
                'history_reset: no history plan recorded for ' ~ model.unique_id
                ~ ' (history_from_changes records it when the model compiles)') }}
        {%- endif -%}
        {{ cdc_history.cdc_partition_overwrite_mode('STATIC' if plans[model.unique_id] == 'rebuild' else 'DYNAMIC') }}
    {%- endif -%}
{% endmacro %}
