{% macro cdc_column_encoding(table_name, column_name) %}
    {#- How the landed text of a binary column holds its bytes, hex or base64: the table's
        cdc_tables column_encodings entry for the column (names compare in lower case), else
        its format's default, the registry entry's column_encoding_default (var
        cdc_source_systems; the one each format has always read: goldengate base64, the
        trail records and Big Data JSON; qlik_kafka hex, Replicate's Kafka target, spec B.1;
        idm_jdbc base64, the JDBC driver logs bytes as Base64). A format without a default
        (qlik_ct) has none: a binary column landed as text must be configured (qlik_ct_layout
        stops the run). -#}
    {%- set table = cdc_history.cdc_table_config(table_name) -%}
    {%- for name, encoding in table.get('column_encodings', {}).items() -%}
        {%- if name | lower == column_name | lower -%}
            {{ return(encoding) }}
        {%- endif -%}
    {%- endfor -%}
    {{ return(cdc_history.cdc_source_system_config(table.source_system).get('column_encoding_default')) }}
{%- endmacro %}
