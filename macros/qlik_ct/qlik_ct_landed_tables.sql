{% macro qlik_ct_landed_tables() %}
    {#- The landed tables of the configured Qlik tables: each table's change table
        <table>__ct and its full-load table <table>, in cdc_tables order. -#}
    {%- set landed = [] -%}
    {%- for table_name in cdc_history.cdc_tables_of('qlik_ct') -%}
        {%- do landed.extend([table_name ~ '__ct', table_name]) -%}
    {%- endfor -%}
    {{ return(landed) }}
{% endmacro %}
