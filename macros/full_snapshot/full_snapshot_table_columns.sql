{% macro full_snapshot_table_columns(table_name) %}
    {#- A full_snapshot table declares its columns in var cdc_tables (a required key): they
        say how each landed value is typed, and which columns a snapshot compares. -#}
    {{ exceptions.raise_compiler_error(
        "full_snapshot_table_columns: cdc_tables." ~ table_name ~ " must declare columns "
        ~ "(every column of the snapshots, with its type)") }}
{% endmacro %}
