{% macro idm_jdbc_change_images(table_name) %}
    {#- int_<table>__change_images of an IDM table: its rolled-up canonical changes
        (int_idm_jdbc__changes_canonical) unfolded into typed images. -#}
    {{ return(cdc_history.cdc_change_images_of_log(
        table_name, ref('int_idm_jdbc__changes_canonical'))) }}
{% endmacro %}
