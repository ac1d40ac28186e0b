{% macro full_snapshot_table_settings(table_name) %}
    {#- How a full_snapshot table lands (docs/full-snapshots.md): {'landed_table': the
        folder (files mode) or table its snapshots are in (cdc_tables landed_table, default
        the table's name), 'snapshot_column': the column that names each row's snapshot
        (cdc_tables snapshot_column, lower case), or none to take it from the file name,
        which only files mode can, 'snapshot_id': what an id is, `time` (the default: a
        time, full_snapshot_time) or `version` (a version number, full_snapshot_order_key)}.
        Both names are checked as identifiers; a landing other than files without
        snapshot_column, or another snapshot_id, stops the run naming the table. -#}
    {%- set table = cdc_history.cdc_table_config(table_name) -%}
    {%- set landed_table = cdc_history.cdc_identifier(
        table.get('landed_table', table_name),
        'cdc_tables.' ~ table_name ~ '.landed_table') -%}
    {%- set snapshot_column = table.get('snapshot_column') -%}
    {%- if snapshot_column -%}
        {%- set snapshot_column = cdc_history.cdc_identifier(
            snapshot_column | lower, 'cdc_tables.' ~ table_name ~ '.snapshot_column') -%}
    {%- elif cdc_history.cdc_var('full_snapshot_landing') != 'files' -%}
        {{ exceptions.raise_compiler_error(
            "full_snapshot: cdc_tables." ~ table_name ~ " needs snapshot_column (the column "
            ~ "naming each row's snapshot): only files mode can take the snapshot from the "
            ~ "file name (full_snapshot_landing is '" ~ cdc_history.cdc_var('full_snapshot_landing') ~ "')") }}
    {%- endif -%}
    {%- set snapshot_id = table.get('snapshot_id', 'time') -%}
    {%- if snapshot_id not in ['time', 'version'] -%}
        {{ exceptions.raise_compiler_error(
            "full_snapshot: cdc_tables." ~ table_name ~ ".snapshot_id must be time or version,"
            ~ " got '" ~ snapshot_id ~ "'") }}
    {%- endif -%}
    {{ return({'landed_table': landed_table, 'snapshot_column': snapshot_column or none,
               'snapshot_id': snapshot_id}) }}
{% endmacro %}
