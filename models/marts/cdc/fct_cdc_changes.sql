{{ config(materialized='view') }}
{#- The canonical change log (spec F.1): one row per change from every enabled
    source system (cdc_source_systems_enabled), the union of their
    int_<source_system>__changes_canonical models through the one column list
    (cdc_canonical_columns). A view: each format keeps its own append-only
    models and watermarks, so the log costs nothing to build and is never
    stale; the histories read the typed per-table models, not this log. #}

with

{% for system in cdc_source_systems_enabled() -%}
{{ system }} as (

    select * from {{ ref('int_' ~ system ~ '__changes_canonical') }}

),

{% endfor -%}

unioned as (

    {% for system in cdc_source_systems_enabled() -%}
    select
        {{- cdc_select_columns(cdc_canonical_columns(), system) }}
    from {{ system }}
    {% if not loop.last %}union all{% endif %}
    {% endfor %}

)

select * from unioned
