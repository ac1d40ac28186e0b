{% macro cdc_quote_key_value(value) %}
    {#- One key value as written in a canonical key string (spec F.2): double-quoted, with \
        and " escaped, when it is empty, starts or ends with whitespace, or contains any of
        , ; ' + " = \ < > ; otherwise as it is. NULL stays NULL.
        Whitespace is exactly the six characters space, tab, line feed, vertical tab, form
        feed and carriage return (chr(32), chr(9) to chr(13)): python_udfs.table_key
        KEY_WHITESPACE and needs_quotes, the one definition of the rule, which
        tests/python/test_key_quoting.py holds this macro equal to. Not plain trim(), which
        strips only spaces. chr(92) is \ and chr(34) is ". -#}
    {%- if value is none or value | string | trim == '' -%}
        {{ exceptions.raise_compiler_error("cdc_quote_key_value: value is required") }}
    {%- endif -%}
    case
        when
            {{ value }} = ''
            or {{ value }} != trim(
                both concat(chr(32), chr(9), chr(10), chr(11), chr(12), chr(13))
                from {{ value }}
            )
            or {{ value }} rlike "[,;'+=<>]"
            or instr({{ value }}, chr(92)) > 0
            or instr({{ value }}, chr(34)) > 0
            then concat(
                chr(34),
                replace(
                    replace({{ value }}, chr(92), concat(chr(92), chr(92))),
                    chr(34),
                    concat(chr(92), chr(34))
                ),
                chr(34)
            )
        else {{ value }}
    end
{%- endmacro %}
