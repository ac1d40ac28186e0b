{% macro cdc_timestamp_pattern() %}
    {#- The regular expression a time point must match (before it is cast): a date, then
        optionally a time (HH:mm, :ss, a fraction of up to 9 digits) after a space or T, then
        optionally Z or an offset. Spark's special texts ('now', 'today', 'epoch',
        'yesterday', 'tomorrow') do not match, so they are refused, not read as the clock. -#}
    {{ return('^[0-9]{4}-[0-9]{2}-[0-9]{2}'
              ~ '([ T][0-9]{2}:[0-9]{2}(:[0-9]{2}([.][0-9]{1,9})?)?)?'
              ~ '(Z|[+-][0-9]{2}(:?[0-9]{2})?)?$') }}
{% endmacro %}
