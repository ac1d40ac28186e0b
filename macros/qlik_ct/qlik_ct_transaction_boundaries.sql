{% macro qlik_ct_transaction_boundaries() %}
    {#- Where the transaction-consistent as-of functions of Qlik tables read boundaries
        (cdc_transaction_log): int_qlik_ct__transaction_boundaries. -#}
    {{ return(ref('int_qlik_ct__transaction_boundaries')) }}
{% endmacro %}
