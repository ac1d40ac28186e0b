{% macro cdc_remember_written(relation, written) %}
    {#- Records for the rest of this invocation that `relation` was written (the `written`
        id its cdc.written property now holds): the models that read it later in the run
        see the new id (cdc_written_id), not the one the relation cache listed at the
        start. -#}
    {%- set memo = graph.get('cdc_written') -%}
    {%- if memo is none -%}
        {%- set memo = {} -%}
        {%- do graph.update({'cdc_written': memo}) -%}
    {%- endif -%}
    {%- do memo.update({(relation.schema ~ '.' ~ relation.identifier) | lower: written}) -%}
{% endmacro %}
