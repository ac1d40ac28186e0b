{% macro create_changes_function(table_name, net=false) %}
    {#- DDL of the persistent table function <schema>.<table>_changes(from_point STRING,
        to_point STRING): the rows of change_query for any window given at query time; with
        net, <schema>.<table>_net_changes(from_point STRING, to_point STRING), each key's
        net effect over the window. Nothing when the function already has this definition
        (cdc_replace_function). -#}
    {%- set columns = cdc_history.cdc_table_columns(table_name) -%}
    {%- set returns = ['pk_string string'] -%}
    {%- for column in columns -%}
        {%- do returns.append(column.name ~ ' ' ~ column.type) -%}
    {%- endfor -%}
    {%- do returns.extend([
        'change_type string', 'change_op string', 'order_key string',
        'changed_at timestamp', 'change_id string', 'order_scope string']) -%}
    {%- set function = table_name ~ ('_net_changes' if net else '_changes') -%}
    {{ cdc_history.cdc_replace_function(
        function,
        '(from_point string, to_point string)\n    returns table ('
            ~ returns | join(', ') ~ ')',
        cdc_history.change_query(table_name, 'from_point', 'to_point', net=net, columns=columns)) }}
{% endmacro %}
