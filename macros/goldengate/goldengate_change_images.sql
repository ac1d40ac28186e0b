{% macro goldengate_change_images(table_name) %}
    {#- int_<table>__change_images of a GoldenGate table: its canonical changes
        (int_goldengate__changes_canonical) unfolded into typed images. -#}
    {{ return(cdc_history.cdc_change_images_of_log(
        table_name, ref('int_goldengate__changes_canonical'))) }}
{% endmacro %}
