{% macro full_snapshot_landed_tables() %}
    {#- The landed tables (files mode: folders) of the full_snapshot format: each configured
        table's landed_table (full_snapshot_table_settings), once. -#}
    {%- set landed = [] -%}
    {%- for table_name in cdc_tables_of('full_snapshot') -%}
        {%- set name = full_snapshot_table_settings(table_name).landed_table -%}
        {%- if name not in landed -%}
            {%- do landed.append(name) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(landed) }}
{% endmacro %}
