{% test validity_is_contiguous(model, partition_by, valid_from, valid_to) %}
{#- History intervals per key neither overlap nor leave gaps: each version ends exactly
    where the next begins, only the last is open, and none is empty or reversed. It also
    checks the history's key, so the model needs no primary_key test of its own (one dbt node
    and one query fewer a table): the key (partition_by) never NULL, and no two versions of
    a key starting together, which makes (partition_by, valid_from) unique. Each broken
    version is returned with `problem`, what is wrong with it. -#}
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

    select
        versions.*,
        concat_ws(
            '; ',
            case when versions.history_key is null then 'NULL key' end,
            case
                when versions.versions_starting_together > 1
                    then 'versions of the key starting together'
            end,
            case
                when not (versions.valid_to <=> versions.next_valid_from)
                    then 'does not end where the next version starts'
            end,
            case when versions.valid_from >= versions.valid_to then 'empty or reversed' end
        ) as problem
    from versions
    where
        versions.history_key is null
        or versions.versions_starting_together > 1
        or not (versions.valid_to <=> versions.next_valid_from)
        or versions.valid_from >= versions.valid_to

)

select * from broken_versions
{% endtest %}
