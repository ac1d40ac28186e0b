{% macro cdc_pk_string_of_map(key_map) %}
    {#- cdc_pk_string for a key map expression whose entries are in key order (pk, pk_before). -#}
    array_join(
        transform(
            map_entries({{ key_map }}),
            entry -> concat(entry.key, '=', {{ cdc_history.cdc_quote_key_value('entry.value') }})
        ),
        '+'
    )
{%- endmacro %}
