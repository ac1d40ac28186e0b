{% macro cdc_quote_key_value(value) %}
    {#- One key value as written in a canonical key string (spec F.2): double-quoted, with \
        and " escaped, when it is empty, has leading or trailing spaces, or contains any of
        , ; ' + " = \ < > ; otherwise as it is. chr(92) is \ and chr(34) is ". -#}
    case
        when
            {{ value }} = ''
            or {{ value }} != trim({{ value }})
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
