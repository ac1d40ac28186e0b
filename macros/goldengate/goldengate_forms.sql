{% macro goldengate_forms() %}
    {#- The forms the configured GoldenGate tables arrive in (trail, json), in that order:
        only these landed tables are read. -#}
    {%- set forms = [] -%}
    {%- for table_name in cdc_history.cdc_tables_of('goldengate') -%}
        {%- set form = cdc_history.goldengate_table_settings(table_name).form -%}
        {%- if form not in forms -%}{%- do forms.append(form) -%}{%- endif -%}
    {%- endfor -%}
    {{ return(forms | sort | reverse | list) }}
{% endmacro %}
