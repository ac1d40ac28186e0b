{% macro cdc_relation_details(relation) %}
    {#- A relation's details as {name: value} (Type, Provider, Location, Table Properties,
        ...): from the relation cache when it holds the relation as dbt listed it at the
        start of the run (`show table extended`, no query), else from `describe table
        extended` (a relation created in this run, a schema dbt did not list). {} when the
        relation does not exist. -#}
    {%- set details = {} -%}
    {%- if not execute -%}{{ return(details) }}{%- endif -%}
    {%- set existing = adapter.get_relation(relation.database, relation.schema, relation.identifier) -%}
    {%- if existing is none -%}{{ return(details) }}{%- endif -%}
    {%- set information = existing.information or '' -%}
    {%- if '\nSchema: ' in information -%}
        {%- for line in information.split('\n') -%}
            {%- set pair = line.split(': ', 1) -%}
            {%- if pair | length == 2 and pair[0] not in details -%}
                {%- do details.update({pair[0]: pair[1]}) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- else -%}
        {#- the rows after the columns: "# Detailed Table Information", then name, value -#}
        {%- set section = namespace(detailed=false) -%}
        {%- for row in run_query('describe table extended ' ~ relation) -%}
            {%- if (row[0] or '').startswith('# Detailed Table Information') -%}
                {%- set section.detailed = true -%}
            {%- elif section.detailed and row[0] and row[0] not in details -%}
                {%- do details.update({row[0]: row[1] or ''}) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(details) }}
{% endmacro %}
