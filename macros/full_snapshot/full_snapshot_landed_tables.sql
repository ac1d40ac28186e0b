{% macro full_snapshot_landed_tables() %}
    {#- The landed tables (files mode: folders) of the full_snapshot format: each configured
        table's landed_table (full_snapshot_table_settings). Two tables landing in one stops
        the run naming both: each would take the other's rows for its own snapshots. -#}
    {%- set landed = {} -%}
    {%- set names = [] -%}
    {%- for table_name in cdc_history.cdc_tables_of('full_snapshot') -%}
        {%- set name = cdc_history.full_snapshot_table_settings(table_name).landed_table -%}
        {%- if name | lower in landed -%}
            {{ exceptions.raise_compiler_error(
                "full_snapshot: cdc_tables." ~ landed[name | lower] ~ " and cdc_tables."
                ~ table_name ~ " both land in '" ~ name ~ "' (landed_table, default the "
                ~ "table's name): give each table its own") }}
        {%- endif -%}
        {%- do landed.update({name | lower: table_name}) -%}
        {%- do names.append(name) -%}
    {%- endfor -%}
    {{ return(names) }}
{% endmacro %}
