{% macro cdc_pk_string(key_columns, value_pattern) %}
    {#- The canonical key string of spec F.2: name=value joined by '+', in key order, names in
        lower case, values quoted by cdc_quote_key_value. value_pattern is the SQL text
        expression of a key column with {column} standing for its name, for example
        "image['{column}']". Null when any key value is null (quarantined upstream). -#}
    {%- if not key_columns -%}
        {{ exceptions.raise_compiler_error("cdc_pk_string: key_columns is empty") }}
    {%- endif -%}
    concat(
        {%- for name in key_columns %}
        {{ cdc_history.sql_string_literal(('+' if not loop.first else '') ~ name | lower ~ '=') }},
        {{ cdc_history.cdc_quote_key_value('(' ~ value_pattern.replace('{column}', name | lower) ~ ')') }}
        {{- ',' if not loop.last }}
        {%- endfor %}
    )
{%- endmacro %}
