{% macro goldengate_table_settings(table_name) %}
    {#- A GoldenGate table's settings from var cdc_tables: form (trail: decoded trail
        records, the default; json: GoldenGate for Big Data operation JSON) and
        source_table_name, the name GoldenGate writes (trail Name:, JSON table field;
        default <source_schema>.<table>), upper case, as the records are matched
        without case. -#}
    {%- set table = cdc_history.cdc_table_config(table_name) -%}
    {%- set form = table.get('form', 'trail') -%}
    {%- if form not in ['trail', 'json'] -%}
        {{ exceptions.raise_compiler_error(
            "goldengate_table_settings: cdc_tables." ~ table_name ~ ".form must be trail or "
            ~ "json, got '" ~ form ~ "'") }}
    {%- endif -%}
    {%- set default_name = (table.source_schema ~ '.' ~ table_name) if table.get('source_schema')
          else table_name -%}
    {%- set name = table.get('source_table_name', default_name) -%}
    {%- if name is not string or name | trim == '' -%}
        {{ exceptions.raise_compiler_error(
            "goldengate_table_settings: cdc_tables." ~ table_name ~ ".source_table_name must "
            ~ "be a non-empty name, got '" ~ name ~ "'") }}
    {%- endif -%}
    {{ return({'form': form, 'source_table_name': name | upper}) }}
{% endmacro %}
