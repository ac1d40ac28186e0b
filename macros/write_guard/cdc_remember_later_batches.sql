{% macro cdc_remember_later_batches(selects) %}
    {#- Hands the selects of a write's later batches (each a query of the model's columns,
        for the tables its first statement leaves out: cdc_table_batches) to the post-hook
        cdc_write_later_batches through the memo `cdc_later_batches`, keyed by the model and
        the invocation. Replaces what an earlier compilation of the same write left. -#}
    {%- if execute and model.resource_type == 'model' -%}
        {%- set memo = graph.setdefault('cdc_later_batches', {}) -%}
        {%- do memo.update({model.unique_id ~ '@' ~ invocation_id: selects | list}) -%}
    {%- endif -%}
{% endmacro %}
