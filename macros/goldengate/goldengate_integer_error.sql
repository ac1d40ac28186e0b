{% macro goldengate_integer_error(text, field_name, low=none, high=none) %}
    {#- The problem with a header field that must be an integer (optionally within
        [low, high]), naming the field; NULL when the text is NULL or fits. -#}
    case
        when {{ text }} is null then null
        when try_cast(trim({{ text }}) as bigint) is null
            then concat(
                {{ cdc_history.sql_string_literal(field_name ~ ' ') }}, left({{ text }}, 60),
                ' is not an integer'
            )
        {%- if low is not none %}
        when try_cast(trim({{ text }}) as bigint) not between {{ low }} and {{ high }}
            then concat(
                {{ cdc_history.sql_string_literal(field_name ~ ' ') }}, {{ text }},
                {{ cdc_history.sql_string_literal(' is not between ' ~ low ~ ' and ' ~ high) }}
            )
        {%- endif %}
    end
{%- endmacro %}
