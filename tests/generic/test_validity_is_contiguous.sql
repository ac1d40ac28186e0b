{% test validity_is_contiguous(model, partition_by, valid_from, valid_to) %}
{#- History intervals per key neither overlap nor leave gaps: each version ends exactly
    where the next begins, only the last is open, and none is empty or reversed. -#}
with

versions as (

    select
        {{ partition_by }} as history_key,
        {{ valid_from }} as valid_from,
        {{ valid_to }} as valid_to,
        lead({{ valid_from }}) over (
            partition by {{ partition_by }} order by {{ valid_from }}
        ) as next_valid_from,
        count(*) over (
            partition by {{ partition_by }}, {{ valid_from }}
        ) as versions_starting_together
    from {{ model }}

),

broken_versions as (

    select versions.*
    from versions
    where
        versions.versions_starting_together > 1
        or not (versions.valid_to <=> versions.next_valid_from)
        or versions.valid_from >= versions.valid_to

)

select * from broken_versions
{% endtest %}
