{% test primary_key(model, columns, not_null=none) %}
{#- The combination of `columns` identifies a row and the `not_null` ones (default: all of
    them) are never NULL: a unique_combination and the not_null tests of its columns in
    one scan of the model instead of one each (which matters when the model is a view
    over a long chain). Returns each offending key with rows_with_this_key and what is
    wrong with it. -#}
{%- set required = columns if not_null is none else not_null -%}
{%- for name in required if name not in columns -%}
    {{ exceptions.raise_compiler_error(
        "primary_key on " ~ model ~ ": not_null column " ~ name ~ " is not one of columns") }}
{%- endfor %}
with

keys as (

    select
        {{ columns | join(', ') }},
        count(*) as rows_with_this_key
    from {{ model }}
    group by {% for _ in columns %}{{ loop.index }}{{ ', ' if not loop.last }}{% endfor %}

),

offending_keys as (

    select
        keys.*,
        concat_ws(
            '; ',
            case when keys.rows_with_this_key > 1 then 'duplicate key' end
            {%- for name in required %},
            case when keys.{{ name }} is null then {{ cdc_history.sql_string_literal(name ~ ' is null') }} end
            {%- endfor %}
        ) as problem
    from keys
    where
        keys.rows_with_this_key > 1
        {%- for name in required %}
        or keys.{{ name }} is null
        {%- endfor %}

)

select * from offending_keys
{% endtest %}
