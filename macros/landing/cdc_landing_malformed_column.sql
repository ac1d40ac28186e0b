{% macro cdc_landing_malformed_column(source_system) %}
    {#- The column in which a system's landed CSV tables hold a record the reader could not
        split into the header's fields (Spark's corrupt-record column), or none when the
        system does not land CSV files. -#}
    {%- if var(source_system ~ '_landing') != 'files'
          or var(source_system ~ '_landing_format', 'parquet') | lower != 'csv' -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set name = cdc_landing_reader_options(source_system).get('columnNameOfCorruptRecord') -%}
    {{ return(cdc_identifier(name | lower, 'var ' ~ source_system ~ '_landing_csv_options')
              if name else none) }}
{% endmacro %}
