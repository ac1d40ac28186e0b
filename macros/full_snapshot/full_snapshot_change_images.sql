{% macro full_snapshot_change_images(table_name) %}
    {#- int_<table>__change_images of a full_snapshot table: its changes derived from
        consecutive snapshots (int_full_snapshot__changes_canonical) unfolded into typed
        images. Imaged again whole when a snapshot older than one already applied has
        been staged since (int_full_snapshot__snapshots, is_late): placing it in order
        changes the changes derived for the snapshot after it. -#}
    {%- set snapshots = ref('int_full_snapshot__snapshots') -%}
    {{ return(cdc_history.cdc_change_images_of_log(
        table_name, ref('int_full_snapshot__changes_canonical'),
        invalidated_by=snapshots, invalidating='is_late')) }}
{% endmacro %}
