{% macro goldengate_io_type_map(part) %}
    {#- A SQL map literal IOType code -> its name (part 'name') or kind (part 'kind') from
        goldengate_io_types(); a code it lacks is unknown. -#}
    {%- set index = {'name': 0, 'kind': 1}[part] -%}
    {%- set entries = [] -%}
    {%- for code, entry in cdc_history.goldengate_io_types().items() -%}
        {%- do entries.append(code ~ ', ' ~ cdc_history.sql_string_literal(entry[index])) -%}
    {%- endfor -%}
    map({{ entries | join(', ') }})
{%- endmacro %}
