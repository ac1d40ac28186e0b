{% macro cdc_spark_type_name(type_text) %}
    {#- A SQL type as Spark's `describe` names it: lower case, no spaces, the aliases
        integer, long, short, byte, real and dec(imal) by their canonical names, and
        char(n) / varchar(n) as string (what a cast to them yields in a table). -#}
    {%- set text = type_text | lower | replace(' ', '') -%}
    {%- set aliases = {'integer': 'int', 'long': 'bigint', 'short': 'smallint',
                       'byte': 'tinyint', 'real': 'float', 'decimal': 'decimal(10,0)',
                       'dec': 'decimal(10,0)', 'numeric': 'decimal(10,0)'} -%}
    {%- if text in aliases -%}
        {{ return(aliases[text]) }}
    {%- endif -%}
    {%- if text.startswith('dec(') or text.startswith('numeric(') -%}
        {{ return('decimal(' ~ text.split('(', 1)[1]) }}
    {%- endif -%}
    {%- if text.startswith('varchar(') or text.startswith('char(') -%}
        {{ return('string') }}
    {%- endif -%}
    {{ return(text) }}
{% endmacro %}
