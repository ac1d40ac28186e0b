{% macro cdc_column_encoding(table_name, column_name) %}
    {#- How the landed text of a binary column holds its bytes, hex or base64: the table's
        cdc_tables column_encodings entry for the column (names compare in lower case), else
        its format's default, the one each format has always read:
          goldengate  base64 (trail records and Big Data JSON)
          qlik_kafka  hex    (Replicate's Kafka target, spec B.1)
          idm_jdbc    base64 (the JDBC driver logs bytes as Base64)
        qlik_ct has no default (none): a binary column landed as text must be configured
        (qlik_ct_layout stops the run), as must a format without a default. -#}
    {%- set table = cdc_table_config(table_name) -%}
    {%- for name, encoding in table.get('column_encodings', {}).items() -%}
        {%- if name | lower == column_name | lower -%}
            {{ return(encoding) }}
        {%- endif -%}
    {%- endfor -%}
    {%- set defaults = {'goldengate': 'base64', 'qlik_kafka': 'hex', 'idm_jdbc': 'base64'} -%}
    {{ return(defaults.get(table.source_system)) }}
{%- endmacro %}
