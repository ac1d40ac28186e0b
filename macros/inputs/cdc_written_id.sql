{% macro cdc_written_id(relation) %}
    {#- Which write of `relation` is the last one: the invocation id its last completed
        write recorded (property cdc.written: cdc_write_finished, the table
        materialization), or for a table written by content (stg_<system>__landed_files)
        a digest of its rows. This run's writes come from the memo cdc_remember_written
        keeps (the relation cache holds the properties as the run found them); none when
        the relation has no record (never written by this project's code, or a write began
        and never finished). -#}
    {%- set written = graph.get('cdc_written', {}) -%}
    {%- set key = (relation.schema ~ '.' ~ relation.identifier) | lower -%}
    {%- if key in written -%}
        {{ return(written[key]) }}
    {%- endif -%}
    {{ return(cdc_history.cdc_table_property(relation, 'cdc.written') or none) }}
{% endmacro %}
