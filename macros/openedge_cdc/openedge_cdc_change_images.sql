{% macro openedge_cdc_change_images(table_name) %}
    {#- int_<table>__change_images of an OpenEdge table: its canonical changes
        (int_openedge_cdc__changes_canonical) unfolded into typed images. -#}
    {{ return(cdc_history.cdc_change_images_of_log(
        table_name, ref('int_openedge_cdc__changes_canonical'))) }}
{% endmacro %}
