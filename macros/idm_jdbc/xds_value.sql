{% macro xds_value(value_type, text) %}
    {#- One XDS <value type="...">...</value> element (spec C.5) holding a text value,
        escaped by xds_escape; NULL when the text is NULL, so that the caller can leave the
        element out. value_type is a string SQL expression ('string' or 'octet'). -#}
    {%- if value_type is none or text is none -%}
        {{ exceptions.raise_compiler_error(
            "xds_value: value_type and text are required") }}
    {%- endif -%}
    concat(
        '<value type="', {{ value_type }}, '">',
        {{ cdc_history.xds_escape(text) }},
        '</value>'
    )
{%- endmacro %}
