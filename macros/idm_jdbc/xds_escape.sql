{% macro xds_escape(text) %}
    {#- A string SQL expression made safe as XML text or attribute value: & < > " ' as
        entities (& first), carriage return as &#13; (a parser would fold it into a line
        feed), and the characters XML 1.0 cannot carry at all (C0 controls other than tab
        and line feed, U+FFFE, U+FFFF) as U+FFFD. NULL stays NULL. chr(34) is ", chr(39)
        is ' and chr(13) is carriage return. -#}
    {%- if text is none or text | string | trim == '' -%}
        {{ exceptions.raise_compiler_error("xds_escape: text is required") }}
    {%- endif -%}
    replace(
        replace(
            replace(
                replace(
                    replace(
                        replace(
                            regexp_replace(
                                {{ text }},
                                '[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x{FFFE}\\x{FFFF}]',
                                '\uFFFD'
                            ),
                            '&', '&amp;'
                        ),
                        '<', '&lt;'
                    ),
                    '>', '&gt;'
                ),
                chr(34), '&quot;'
            ),
            chr(39), '&apos;'
        ),
        chr(13), '&#13;'
    )
{%- endmacro %}
