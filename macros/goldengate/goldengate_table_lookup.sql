{% macro goldengate_table_lookup() %}
    {#- A SQL map literal '<FORM>|<SOURCE_TABLE_NAME>' (upper case) -> the configured table
        name, for every GoldenGate table of var cdc_tables: how a record's table name finds
        its table. Two tables with the same form and name stop the run. -#}
    {%- set seen = {} -%}
    {%- set entries = [] -%}
    {%- for table_name in cdc_history.cdc_tables_of('goldengate') -%}
        {%- set settings = cdc_history.goldengate_table_settings(table_name) -%}
        {%- set lookup_key = (settings.form ~ '|' ~ settings.source_table_name) | upper -%}
        {%- if lookup_key in seen -%}
            {{ exceptions.raise_compiler_error(
                "goldengate_table_lookup: cdc_tables " ~ seen[lookup_key] ~ " and " ~ table_name
                ~ " both read " ~ settings.source_table_name ~ " from the " ~ settings.form
                ~ " landing") }}
        {%- endif -%}
        {%- do seen.update({lookup_key: table_name}) -%}
        {%- do entries.append(cdc_history.sql_string_literal(lookup_key) ~ ', ' ~ cdc_history.sql_string_literal(table_name)) -%}
    {%- endfor -%}
    {%- if entries | length == 0 -%}
        cast(map() as map<string, string>)
    {%- else -%}
        map({{ entries | join(', ') }})
    {%- endif -%}
{%- endmacro %}
