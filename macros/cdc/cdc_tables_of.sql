{% macro cdc_tables_of(source_system) %}
    {#- Names of the configured tables (var cdc_tables) captured by one source system. -#}
    {%- set names = [] -%}
    {%- for name, table in cdc_history.cdc_var('cdc_tables').items() -%}
        {%- if table.get('source_system') == source_system -%}{%- do names.append(name) -%}{%- endif -%}
    {%- endfor -%}
    {{ return(names | sort) }}
{% endmacro %}
