{% macro spark__load_csv_rows(model, agate_table) %}
    {#- Overrides dbt-spark's seed loader. With method: session it interpolates bindings as
        Python text, so an empty CSV field (None) lands as the string 'None' and a quote in a
        value breaks the statement. Here every value is a proper SQL literal: null, or a
        quoted, escaped string cast to the column's type. -#}
    {%- set column_override = model['config'].get('column_types', {}) -%}
    {%- set types = [] -%}
    {%- for col_name in agate_table.column_names -%}
        {%- do types.append(
            column_override.get(col_name, adapter.convert_type(agate_table, loop.index0))) -%}
    {%- endfor -%}
    {%- set statements = [] -%}
    {%- for chunk in agate_table.rows | batch(get_batch_size()) -%}
        {%- set sql -%}
            insert into {{ this.render() }} values
            {% for row in chunk -%}
            (
                {%- for value in row -%}
                {%- if value is none -%}
                cast(null as {{ types[loop.index0] }})
                {%- else -%}
                cast({{ cdc_history.sql_string_literal(value) }} as {{ types[loop.index0] }})
                {%- endif -%}
                {{- ', ' if not loop.last }}
                {%- endfor -%}
            ){{ ',' if not loop.last }}
            {% endfor %}
        {%- endset -%}
        {%- do adapter.add_query(sql, abridge_sql_log=True) -%}
        {%- if loop.first -%}{%- do statements.append(sql) -%}{%- endif -%}
    {%- endfor -%}
    {{ return(statements[0]) }}
{% endmacro %}
