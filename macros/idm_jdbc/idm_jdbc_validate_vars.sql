{% macro idm_jdbc_validate_vars() %}
    {#- The IDM event log's vars that reach SQL as identifiers, checked at parse time by
        cdc_validate_vars (the format's <system>_validate_vars hook): the event log table's
        name (var idm_jdbc_event_log) and each of its column names (var idm_jdbc_columns,
        event log column -> the name in the landed table). -#}
    {%- do cdc_history.cdc_identifier(cdc_history.cdc_var('idm_jdbc_event_log'), 'var idm_jdbc_event_log') -%}
    {%- set event_log_columns = cdc_history.cdc_var('idm_jdbc_columns') -%}
    {%- if event_log_columns is not mapping -%}
        {{ exceptions.raise_compiler_error(
            "cdc_validate_vars: var idm_jdbc_columns must map each event log column to its "
            ~ "name in the landed table") }}
    {%- endif -%}
    {%- for column, name in event_log_columns.items() -%}
        {%- do cdc_history.cdc_identifier(name, 'var idm_jdbc_columns.' ~ column) -%}
    {%- endfor -%}
{% endmacro %}
