{% test rows_satisfy(model, conditions) %}
{#- Every row satisfies every named condition (a boolean SQL expression; NULL counts as
    false), checked in one scan of the model: the not-null, accepted-values and expression
    checks of one relation as one query instead of one query each, which matters when the
    relation is a view over a long chain. Returns each violating row with failed_checks,
    the names of the conditions it breaks. `conditions`: a mapping of name to expression. -#}
{%- if conditions is not mapping or conditions | length == 0 -%}
    {{ exceptions.raise_compiler_error(
        "rows_satisfy on " ~ model ~ ": conditions must be a non-empty mapping of a name to "
        ~ "a boolean SQL expression") }}
{%- endif %}
with

checked as (

    select
        filter(
            array(
                {%- for name, condition in conditions.items() %}
                case
                    when not coalesce({{ condition }}, false)
                        then {{ sql_string_literal(name) }}
                end{{ ',' if not loop.last }}
                {%- endfor %}
            ),
            check_name -> check_name is not null
        ) as failed_checks,
        *
    from {{ model }}

)

select * from checked
where size(failed_checks) > 0
{% endtest %}
