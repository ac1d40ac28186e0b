{% macro openedge_cdc_control_operations_ready() %}
    {#- Which kinds of control operation int_openedge_cdc__changes_paired holds ready to
        apply, as {'partition': bool, 'field_delete': bool}: a partition operation (6 to 11)
        removes rows (int_openedge_cdc__partition_rows_removed) and a field delete (5, level
        2/3) clears a field of the live rows (int_openedge_cdc__dropped_fields_cleared).
        The canonical model leaves out the steps of a kind none of its changes has: they
        would read every change to find nothing, a third of its time at 1 M changes with none
        (BENCHMARKS.md section 42). Both true while parsing (so the model depends on both
        steps and its documented SQL holds them) and outside a model's run (a unit test's
        inputs are fixed rows); else one narrow query over the pairing table, built earlier
        in the run (both true while it does not exist yet, as in a lint). -#}
    {%- set both = {'partition': true, 'field_delete': true} -%}
    {%- set paired = ref('int_openedge_cdc__changes_paired') -%}
    {%- if not execute or model.resource_type != 'model'
          or load_relation(paired) is none -%}
        {{ return(both) }}
    {%- endif -%}
    {%- set found = run_query(
        'select count_if(operation between 6 and 11) > 0,'
        ~ ' count_if(operation = 5 and policy_level >= 2) > 0'
        ~ ' from ' ~ paired ~ ' where is_ready') -%}
    {{ return({
        'partition': found.rows[0][0] == true,
        'field_delete': found.rows[0][1] == true}) }}
{% endmacro %}
