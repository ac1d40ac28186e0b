{% macro openedge_cdc_operation_error(relation, field, low, high, meaning) %}
    {#- SQL for the reason a landed _Operation is unusable: NULL, or outside low..high (the
        codes this table may hold), told as "<field> <text> is not <meaning>". NULL when
        fine. Reads `relation`.operation and `relation`.operation_text. -#}
    case
        when
            {{ relation }}.operation is null
            or {{ relation }}.operation not between {{ low | int }} and {{ high | int }}
            then concat(
                {{ cdc_history.sql_string_literal(field ~ ' ') }},
                coalesce({{ relation }}.operation_text, 'NULL'),
                {{ cdc_history.sql_string_literal(' is not ' ~ meaning) }}
            )
    end
{%- endmacro %}
