{% macro toyfeed_change_images(table_name) %}
    {#- int_<table>__change_images of a toyfeed table: its canonical changes unfolded into
        typed images (the format maps onto the log first). -#}
    {{ return(cdc_history.cdc_change_images_of_log(table_name, ref('int_toyfeed__changes_canonical'))) }}
{% endmacro %}
