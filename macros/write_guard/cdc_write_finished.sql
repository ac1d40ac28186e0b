{% macro cdc_write_finished() %}
    {#- post-hook: the write recorded by cdc_write_started has completed. -#}
    {%- if execute and model.resource_type == 'model' -%}
        {%- do run_query(cdc_set_table_properties(this, {'cdc.write': 'finished'})) -%}
    {%- endif -%}
    select 1 as write_finished
{% endmacro %}
