{% macro goldengate_image_extra_columns(table_name, image) %}
    {#- The entries of an image map expression that name no declared column of `table_name`
        (compared without case), leaving out the JSON `<column>_isMissing` flags of
        declared columns: an array of names as written. -#}
    {%- set names = [] -%}
    {%- for column in cdc_history.cdc_table_columns(table_name) -%}
        {%- do names.append(column.name) -%}
        {%- do names.append(column.name ~ '_ismissing') -%}
    {%- endfor -%}
    filter(
        map_keys({{ image }}),
        image_key -> not array_contains(
            {{ cdc_history.sql_string_array(names) }}, lower(image_key)
        )
    )
{%- endmacro %}
