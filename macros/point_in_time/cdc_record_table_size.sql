{% macro cdc_record_table_size() %}
    {#- Post-hook of a model whose table is partitioned and read whole by what follows
        (GoldenGate's trail models and change log): records the table's size in bytes in
        its statistics, from its files' sizes, with no scan (analyze ... noscan). Spark
        takes the size of a partitioned table that no query prunes from these statistics
        and, without them, counts it as larger than any broadcast threshold; a small table
        (a sample build's) then reaches its readers' joins by a shuffle of every row
        instead of a broadcast. Runs before cdc_write_finished, so a write's properties
        stay the last it sets. -#}
    {%- if execute and model.resource_type == 'model' -%}
        analyze table {{ this }} compute statistics noscan
    {%- endif -%}
{% endmacro %}
