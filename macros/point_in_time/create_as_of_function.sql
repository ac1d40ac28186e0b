{% macro create_as_of_function(table_name, consistent=false) %}
    {#- DDL of the persistent table function <schema>.<table>_as_of(point STRING): the rows of
        point_in_time_query for any point given at query time. With consistent, the
        transaction-consistent <schema>.<table>_as_of_consistent(point STRING): the same
        rows at cdc_consistent_point(point), the newest transaction boundary at or before
        the point with no incomplete transaction before it. -#}
    {%- set columns = cdc_table_columns(table_name) -%}
    {%- set returns = ['pk_string string'] -%}
    {%- for column in columns -%}
        {%- do returns.append(column.name ~ ' ' ~ column.type) -%}
    {%- endfor -%}
    {%- do returns.extend([
        'last_op string', 'last_order_key string', 'last_changed_at timestamp',
        'last_change_id string', 'previous_image map<string, string>']) -%}
    {%- if consistent %}
    create or replace function {{ this.schema }}.{{ table_name }}_as_of_consistent(point string)
    returns table ({{ returns | join(', ') }})
    return {{ point_in_time_query(
        table_name, 'point_query.point', columns,
        point_query=cdc_consistent_point(table_name, 'point')) }}
    {%- else %}
    create or replace function {{ this.schema }}.{{ table_name }}_as_of(point string)
    returns table ({{ returns | join(', ') }})
    return {{ point_in_time_query(table_name, 'point', columns) }}
    {%- endif %}
{% endmacro %}
