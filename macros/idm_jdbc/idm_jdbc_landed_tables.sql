{% macro idm_jdbc_landed_tables() %}
    {#- The landed tables of the IDM event log: the event log (var idm_jdbc_event_log) and
        each configured table's snapshot_table. -#}
    {%- set landed = [cdc_history.cdc_var('idm_jdbc_event_log')] -%}
    {%- for table_name in cdc_history.cdc_tables_of('idm_jdbc') -%}
        {%- set snapshot = cdc_history.cdc_table_config(table_name).get('snapshot_table') -%}
        {%- if snapshot and snapshot not in landed -%}
            {%- do landed.append(snapshot) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(landed) }}
{% endmacro %}
