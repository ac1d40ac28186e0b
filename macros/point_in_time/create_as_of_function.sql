{% macro create_as_of_function(table_name, consistent=false) %}
    {#- DDL of the persistent table function <schema>.<table>_as_of(point STRING): the rows of
        point_in_time_query for any point given at query time. With consistent, the
        transaction-consistent <schema>.<table>_as_of_consistent(point STRING): the same
        rows at cdc_consistent_point(point), the newest transaction boundary at or before
        the point with no incomplete transaction before it. For a table with history option
        bitemporal, <table>_as_of(point STRING, known_at STRING DEFAULT NULL): given
        known_at, the rows as the warehouse knew them then (point_in_time_known_query);
        without it, as before. Nothing when the function already has this definition
        (cdc_replace_function). -#}
    {%- set columns = cdc_history.cdc_table_columns(table_name) -%}
    {%- set returns = ['pk_string string'] -%}
    {%- for column in columns -%}
        {%- do returns.append(column.name ~ ' ' ~ column.type) -%}
    {%- endfor -%}
    {%- do returns.extend([
        'last_op string', 'last_order_key string', 'last_changed_at timestamp',
        'last_change_id string', 'previous_image map<string, string>']) -%}
    {%- set returns_table = '\n    returns table (' ~ returns | join(', ') ~ ')' -%}
    {%- set signature = '(point string)' ~ returns_table -%}
    {%- if consistent -%}
        {{ cdc_history.cdc_replace_function(
            table_name ~ '_as_of_consistent', signature,
            cdc_history.point_in_time_query(
                table_name, 'point_query.point', columns,
                point_query=cdc_history.cdc_consistent_point(table_name, 'point'))) }}
    {%- elif cdc_history.cdc_history_options(table_name, columns).bitemporal -%}
        {#- the parameter qualified by the function's name, apart from any column of
            that name -#}
        {%- set known_at = table_name ~ '_as_of.known_at' -%}
        {{ cdc_history.cdc_replace_function(
            table_name ~ '_as_of',
            '(point string, known_at string default null)' ~ returns_table,
            'select * from (\n' ~ cdc_history.point_in_time_query(table_name, 'point', columns)
            ~ '\n) as known_now where ' ~ known_at ~ ' is null'
            ~ '\nunion all\nselect * from (\n'
            ~ cdc_history.point_in_time_known_query(table_name, 'point', known_at, columns)
            ~ '\n) as known_then where ' ~ known_at ~ ' is not null') }}
    {%- else -%}
        {{ cdc_history.cdc_replace_function(
            table_name ~ '_as_of', signature,
            cdc_history.point_in_time_query(table_name, 'point', columns)) }}
    {%- endif -%}
{% endmacro %}
