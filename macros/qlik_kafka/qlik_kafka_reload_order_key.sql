{% macro qlik_kafka_reload_order_key(batch_at, change_number) %}
    {#- The order_key of a reload's change number `change_number` (0 its TRUNCATE, 1
        its rows) at its batch's first message time (SQL `batch_at`): the time to
        the hundredth of a second, then the number in 19 digits. -#}
    {{- return("concat(date_format(" ~ batch_at ~ ", 'yyyyMMddHHmmssSS'), lpad('"
        ~ (change_number | int) ~ "', 19, '0'))") -}}
{% endmacro %}
