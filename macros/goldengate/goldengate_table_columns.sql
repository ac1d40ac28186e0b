{% macro goldengate_table_columns(table_name) %}
    {#- A GoldenGate table declares its columns in var cdc_tables (a required key): trail
        records and JSON messages carry values, not the table's DDL. -#}
    {{ exceptions.raise_compiler_error(
        "goldengate_table_columns: cdc_tables." ~ table_name ~ " must declare columns "
        ~ "(name: type, in order)") }}
{% endmacro %}
