{% macro openedge_cdc_landed_field(relation_alias, name, landed_names, data_type='string') %}
    {#- A landed field as a SQL expression, cast with try_cast to data_type: the quoted
        column `name` of relation_alias when the landed table has it (landed_names: its
        column names in lower case, or none while parsing), else a typed NULL, so an
        optional field (e.g. _Tenant-Id, _Changed-Columns) may be absent. -#}
    {%- if landed_names is none or name | lower in landed_names -%}
        {%- set column = relation_alias ~ '.' ~ cdc_history.cdc_quoted_name(name) -%}
        {%- if data_type == 'string' -%}
            {{ return('cast(' ~ column ~ ' as string)') }}
        {%- endif -%}
        {{ return('try_cast(' ~ column ~ ' as ' ~ data_type ~ ')') }}
    {%- endif -%}
    {{ return('cast(null as ' ~ data_type ~ ')') }}
{% endmacro %}
