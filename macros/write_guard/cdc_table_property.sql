{% macro cdc_table_property(relation, key) %}
    {#- A table property's value, or none when the table or the property does not exist.
        Read from the relation cache when it holds the table as dbt listed it at the start
        of the run (`show table extended`: its "Table Properties: [k=v, ...]", no query);
        else (a table created in this run, a schema dbt did not list) from
        `show tblproperties`. So it is the value as the run found it: the readers are the
        on-run-start repair and a model reading its own table before its hooks run, and
        no value of ours holds ", " (states, column names, timestamps, digests). -#}
    {%- if not execute -%}{{ return(none) }}{%- endif -%}
    {%- set existing = adapter.get_relation(relation.database, relation.schema, relation.identifier) -%}
    {%- if existing is none -%}{{ return(none) }}{%- endif -%}
    {%- set information = existing.information or '' -%}
    {%- if '\nSchema: ' in information -%}
        {%- for line in information.split('\n')
              if line.startswith('Table Properties: [') and line.endswith(']') -%}
            {%- for pair in line[19:-1].split(', ') -%}
                {%- set parts = pair.split('=', 1) -%}
                {%- if parts[0] == key -%}
                    {{ return(parts[1] if parts | length == 2 else '') }}
                {%- endif -%}
            {%- endfor -%}
        {%- endfor -%}
        {{ return(none) }}
    {%- endif -%}
    {%- for row in run_query('show tblproperties ' ~ relation) -%}
        {%- if row[0] == key -%}{{ return(row[1]) }}{%- endif -%}
    {%- endfor -%}
    {{ return(none) }}
{% endmacro %}
