{{ config(materialized='table') }}
{#- One row per landed record that was kept out of the change log, from every
    enabled source system, with the reason: the union of their
    int_<source_system>__rows_quarantined models through the one column list
    (cdc_quarantine_columns). A table rebuilt on every run (its tests and
    readers scan it, not the formats' view chains each time), so a row leaves it
    in the run that lands its fix. quarantine_id hashes what identifies the
    record, its reason, and its occurrence among identical ones. #}

with

{% for system in cdc_source_systems_enabled() -%}
{{ system }} as (

    select * from {{ ref('int_' ~ system ~ '__rows_quarantined') }}

),

{% endfor -%}

unioned as (

    {% for system in cdc_source_systems_enabled() -%}
    select
        {{- cdc_select_columns(cdc_quarantine_columns(), system) }}
    from {{ system }}
    {% if not loop.last %}union all{% endif %}
    {% endfor %}

)

select
    sha2(
        concat_ws(
            '|',
            unioned.source_system,
            unioned.landed_table,
            coalesce(unioned.raw_key, ''),
            unioned.record_json,
            unioned.reason,
            {# identical records (an event log row landed twice) are told
               apart by their occurrence: nothing else can order them #}
            cast(row_number() over (
                partition by
                    unioned.source_system,
                    unioned.landed_table,
                    unioned.raw_key,
                    unioned.record_json,
                    unioned.reason
                order by unioned.loaded_at
            ) as string)
        ),
        256
    ) as quarantine_id,
    unioned.*
from unioned
