{% test expression_is_true(model, expression) %}
{#- Every row satisfies a boolean SQL expression; failing rows are returned. -#}
with

violating_rows as (

    select *
    from {{ model }}
    where not coalesce({{ expression }}, false)

)

select * from violating_rows
{% endtest %}
