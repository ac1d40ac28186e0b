{% macro cdc_key_move_chain_limit() %}
    {#- var key_move_chain_limit (default 64): how many moves of one key (an update of its
        key columns) cdc_state_images follows within one batch; a whole number of at least
        1, checked by cdc_validate_vars while dbt parses. -#}
    {%- set chain_limit = var('key_move_chain_limit', 64) -%}
    {%- if chain_limit is boolean or chain_limit is not number
           or chain_limit != chain_limit | int or chain_limit < 1 -%}
        {{ exceptions.raise_compiler_error(
            "cdc_key_move_chain_limit: var key_move_chain_limit must be a whole number of at "
            ~ "least 1, got " ~ chain_limit) }}
    {%- endif -%}
    {{ return(chain_limit | int) }}
{% endmacro %}
