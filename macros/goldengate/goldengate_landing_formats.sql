{% macro goldengate_landing_formats() %}
    {#- The file formats GoldenGate's landed folders may have (var goldengate_landing_format):
        Parquet, JSON Lines (json) or CSV with a header row. -#}
    {{ return(['parquet', 'json', 'csv']) }}
{% endmacro %}
