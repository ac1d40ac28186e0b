{% test rows_satisfy(model, conditions, unique=none) %}
{#- Every row satisfies every named condition (a boolean SQL expression; NULL counts as
    false), and no two rows share a value of any named key in `unique`, checked in one scan
    of the model: the not-null, accepted-values, expression and key checks of one relation
    as one query instead of one query each, which matters when the relation is a view over
    a long chain. Returns each violating row with failed_checks, the names of the checks
    it breaks (every row of a key held twice breaks that key's check). `conditions`: a
    mapping of name to expression; `unique`: a mapping of name to a list of columns whose
    combination is a key (NULLs count as equal, as in unique_combination; each key is a
    window over the one scan, not a second evaluation of the model). -#}
{%- if conditions is not mapping or conditions | length == 0 -%}
    {{ exceptions.raise_compiler_error(
        "rows_satisfy on " ~ model ~ ": conditions must be a non-empty mapping of a name to "
        ~ "a boolean SQL expression") }}
{%- endif %}
{%- set keys = unique if unique is not none else {} %}
{%- set shape = namespace(wrong=keys is not mapping) %}
{%- for columns in (keys.values() if keys is mapping else []) %}
    {%- if columns is string or columns is not sequence or columns | length == 0 %}
        {%- set shape.wrong = true %}
    {%- endif %}
{%- endfor %}
{%- if shape.wrong -%}
    {{ exceptions.raise_compiler_error(
        "rows_satisfy on " ~ model ~ ": unique must be a mapping of a name to a non-empty "
        ~ "list of columns") }}
{%- endif %}
with

counted as (

    select
        {%- for columns in keys.values() %}
        count(*) over (partition by {{ columns | join(', ') }}) as cdc_rows_with_key_{{ loop.index }},
        {%- endfor %}
        *
    from {{ model }}

),

checked as (

    select
        filter(
            array(
                {%- for name, condition in conditions.items() %}
                case
                    when not coalesce({{ condition }}, false)
                        then {{ cdc_history.sql_string_literal(name) }}
                end{{ ',' if not (loop.last and not keys) }}
                {%- endfor %}
                {%- for name in keys %}
                case
                    when cdc_rows_with_key_{{ loop.index }} > 1
                        then {{ cdc_history.sql_string_literal(name) }}
                end{{ ',' if not loop.last }}
                {%- endfor %}
            ),
            check_name -> check_name is not null
        ) as failed_checks,
        * {%- if keys %} except (
            {%- for _ in keys %}
            cdc_rows_with_key_{{ loop.index }}{{ ',' if not loop.last }}
            {%- endfor %}
        )
        {%- endif %}
    from counted

)

select * from checked
where size(failed_checks) > 0
{% endtest %}
