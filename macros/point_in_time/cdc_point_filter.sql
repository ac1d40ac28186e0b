{% macro cdc_point_filter(alias, point, subject='as_of: the point') %}
    {#- True for the images of `alias` at or before `point`, a SQL string expression:
        'latest'; an order_key (digits: compared as fixed-width text within the order_scope);
        or a timestamp (compared with effective_at; snapshot rows, whose effective_at is
        null, are before every time), written as cdc_timestamp_pattern says and a real
        time. Anything else raises an error naming the value: Spark's special values
        ('now', 'today', 'epoch', ...), an impossible date, an empty text, NULL. The error
        starts with `subject` (default 'as_of: the point'), e.g. 'employees_changes:
        from_point'. -#}
    case
        when {{ point }} = 'latest' then true
        when {{ point }} rlike '^[0-9]+$'
            then {{ alias }}.order_key <= case
                when length({{ point }}) < length({{ alias }}.order_key)
                    then lpad({{ point }}, length({{ alias }}.order_key), '0')
                else {{ point }}
            end
        else coalesce({{ alias }}.effective_at, timestamp '0001-01-01 00:00:00')
            <= {{ cdc_history.cdc_checked_time(
                point, subject ~ ' must be latest, an order_key (digits) or a timestamp, got ')
            }}
    end
{%- endmacro %}
