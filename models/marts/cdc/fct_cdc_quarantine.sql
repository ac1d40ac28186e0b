{{ config(materialized='view') }}
{#- One row per landed record that was kept out of the change log, from every
    enabled source system, with the reason: the union of their
    int_<source_system>__rows_quarantined models through the one column list
    (cdc_quarantine_columns). A view, so a row leaves it once its cause is
    fixed. #}

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
            unioned.record_json
        ),
        256
    ) as quarantine_id,
    unioned.*
from unioned
