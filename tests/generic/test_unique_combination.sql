{% test unique_combination(model, columns) %}
{#- The combination of `columns` identifies a row: the model's primary key, without the
    not-null checks of primary_key (whose query it is). -#}
{{ cdc_history.test_primary_key(model, columns, not_null=[]) }}
{% endtest %}
