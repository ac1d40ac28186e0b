{% macro full_snapshot_at(text, snapshot_id) %}
    {#- The time a snapshot's id names (full_snapshot_time) with snapshot_id `time`; with
        `version` none (NULL): a version number says where the snapshot is in the table's
        order (full_snapshot_order_key), not when it was taken. -#}
    {%- if snapshot_id == 'version' -%}
    cast(null as timestamp)
    {%- else -%}
    {{ cdc_history.full_snapshot_time(text) }}
    {%- endif -%}
{%- endmacro %}
