{% macro cdc_landing_location(source_system, name) %}
    {#- The folder a landed table's files are in: <var <system>_landing_root>/<name>. -#}
    {{ return((cdc_history.cdc_var(source_system ~ '_landing_root') | trim).rstrip('/') ~ '/' ~ name) }}
{% endmacro %}
