{% macro cdc_transaction_log(source_system) %}
    {#- The relation cdc_consistent_point reads a format's transaction boundaries from
        (order_scope, order_key, effective_at, txn_last, flags): the one the format's
        optional macro <source_system>_transaction_boundaries() returns (qlik_ct: its narrow
        incremental int_qlik_ct__transaction_boundaries), else its canonical log
        int_<source_system>__changes_canonical. A table-valued function analyses this
        relation whenever it is created or called, so a narrow table beats a view over
        every table's pairing. -#}
    {%- set name = source_system ~ '_transaction_boundaries' -%}
    {%- if name in context -%}
        {{ return(context[name]()) }}
    {%- endif -%}
    {{ return(ref('int_' ~ source_system ~ '__changes_canonical')) }}
{% endmacro %}
