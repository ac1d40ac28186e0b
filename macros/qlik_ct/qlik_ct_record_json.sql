{% macro qlik_ct_record_json(layout, relation_alias, with_headers=true) %}
    {#- A staged row as JSON for the quarantine: what was landed (header fields as staged,
        then the data columns of the layout), never load metadata, so a rebuild yields the
        same text. -#}
    {%- set names = [] -%}
    {%- if with_headers -%}
        {%- do names.extend(['order_key', 'change_oper', 'operation', 'stream_position',
                             'transaction_id', 'op_ts', 'change_mask_hex']) -%}
    {%- endif -%}
    {%- do names.extend(layout.data_columns | map(attribute='name')) -%}
    to_json(named_struct(
        {%- for name in names %}
        {{ cdc_history.sql_string_literal(name) }}, {{ relation_alias }}.{{ name }}{{ ',' if not loop.last }}
        {%- endfor %}
    ))
{%- endmacro %}
