{% macro cdc_key_move_chain_limit() %}
    {#- var key_move_chain_limit (default 64): how many moves of one key (an update of its
        key columns) cdc_state_images follows within one batch; a whole number of at least
        1, checked by cdc_validate_vars while dbt parses. -#}
    {{ return(cdc_history.cdc_whole_number_var(
        'key_move_chain_limit', 64, 'cdc_key_move_chain_limit')) }}
{% endmacro %}
