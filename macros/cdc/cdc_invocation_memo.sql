{% macro cdc_invocation_memo() %}
    {#- A dict kept for the running dbt command only, for what is the same for every node of
        it: that the whole configuration was checked (cdc_validate_config), the package's var
        defaults (cdc_var_defaults) and the configuration entries already checked
        (cdc_source_system_config, cdc_table_config), so dbt's parse and
        each node's compile do not build and check them again, model after model. `graph`
        holds it under one key with the command's invocation_id: a saved manifest's memo
        (partial parsing keeps `graph`) is replaced by a new one, so it never grows from
        command to command. Where there is no `graph` mapping, a new dict each call: nothing
        is kept. Callers keep an entry only while the var value it came from is the very
        object they read now (Jinja's `sameas`), so a unit test's `overrides: vars` is
        checked again. -#}
    {%- if graph is not mapping -%}
        {{ return({}) }}
    {%- endif -%}
    {%- set memo = graph.get('cdc_invocation_memo') -%}
    {%- if memo is not mapping or memo.get('invocation_id') != invocation_id -%}
        {%- set memo = {'invocation_id': invocation_id} -%}
        {%- do graph.update({'cdc_invocation_memo': memo}) -%}
    {%- endif -%}
    {{ return(memo) }}
{% endmacro %}
