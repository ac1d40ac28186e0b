{% macro cdc_checked_time(value, refusal) %}
    {#- `value` (a SQL string expression) as a timestamp when it is written as
        cdc_timestamp_pattern says and is a real time; anything else stops the query with
        `refusal` (text) followed by the value (NULL as 'NULL'). -#}
coalesce(
    case
        when {{ value }} rlike {{ cdc_history.sql_string_literal(cdc_history.cdc_timestamp_pattern()) }}
            then try_cast({{ value }} as timestamp)
    end,
    raise_error(concat({{ cdc_history.sql_string_literal(refusal) }}, coalesce({{ value }}, 'NULL')))
)
{%- endmacro %}
