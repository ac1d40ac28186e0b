{% macro cdc_table_replaces_staged(table_name) %}
    {#- True when a later load of the table can replace a change already staged (a row
        landed again at the same position with other content supersedes it), so its
        images may be built again and its history checks each new image against the
        positions it applied: the format's hook <system>_table_replaces_staged(table_name)
        answers (qlik_ct_table_replaces_staged: duplicate_resolution latest_load); false for
        a format without one. Names no format. -#}
    {%- set hook = cdc_history.cdc_format_hook(
        cdc_history.cdc_table_config(table_name).source_system, 'table_replaces_staged') -%}
    {%- if hook is none -%}
        {{ return(false) }}
    {%- endif -%}
    {{ return(hook(table_name)) }}
{% endmacro %}
