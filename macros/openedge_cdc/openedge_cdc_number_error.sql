{% macro openedge_cdc_number_error(text_expression, typed_expression, field, required=true) %}
    {#- SQL for the reason a landed metadata field is unusable: NULL (when required), or
        text that does not cast to its integer or timestamp type. NULL when fine. -#}
    case
        {%- if required %}
        when {{ text_expression }} is null
            then {{ cdc_history.sql_string_literal(field ~ ' is NULL') }}
        {%- endif %}
        when {{ text_expression }} is not null and {{ typed_expression }} is null
            then concat(
                {{ cdc_history.sql_string_literal(field ~ ' ') }},
                {{ text_expression }},
                {{ cdc_history.sql_string_literal(' does not convert to its type') }}
            )
    end
{%- endmacro %}
