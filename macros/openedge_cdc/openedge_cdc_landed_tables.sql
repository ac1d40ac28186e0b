{% macro openedge_cdc_landed_tables() %}
    {#- The landed tables of OpenEdge CDC: the change-tracking table (var
        openedge_cdc_tracking_table) and the change table of each configured table with a
        level 2/3 policy or an explicit change_table (default cdc_<table>); levels 0 and 1
        record no values (spec D.5). The tracking table's name is checked as an identifier
        (its sources YAML pastes it; each change table's, openedge_cdc_table_settings). -#}
    {%- set landed = [cdc_history.cdc_identifier(
        cdc_history.cdc_var('openedge_cdc_tracking_table'), 'var openedge_cdc_tracking_table')] -%}
    {%- for table_name in cdc_history.cdc_tables_of('openedge_cdc') -%}
        {%- set settings = cdc_history.openedge_cdc_table_settings(table_name) -%}
        {%- set change_table = settings.change_table -%}
        {%- set has_table = settings.has_values
              or 'change_table' in cdc_history.cdc_table_config(table_name) -%}
        {%- if has_table and change_table not in landed -%}
            {%- do landed.append(change_table) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(landed) }}
{% endmacro %}
