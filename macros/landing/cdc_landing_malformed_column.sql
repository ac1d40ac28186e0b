{% macro cdc_landing_malformed_column(source_system) %}
    {#- The column in which a system's landed CSV or JSON Lines tables hold a record the
        reader could not split into the header's fields or parse as a JSON object (Spark's
        corrupt-record column), or none when the system lands neither. -#}
    {%- if cdc_history.cdc_var(source_system ~ '_landing') != 'files'
          or cdc_history.cdc_var(source_system ~ '_landing_format', 'parquet') | lower not in ['csv', 'json'] -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set name = cdc_history.cdc_landing_reader_options(source_system).get('columnNameOfCorruptRecord') -%}
    {{ return(cdc_history.cdc_identifier(name | lower, 'var ' ~ source_system ~ '_landing_csv_options')
              if name else none) }}
{% endmacro %}
