{% test unique_combination(model, columns) %}
{#- The combination of `columns` identifies a row: the model's primary key. -#}
with

duplicated_keys as (

    select
        {{ columns | join(', ') }},
        count(*) as rows_with_this_key
    from {{ model }}
    group by {{ columns | join(', ') }}
    having count(*) > 1

)

select * from duplicated_keys
{% endtest %}
