{% macro cdc_quarantine_rows(members) %}
    {#- The rows fct_cdc_quarantine writes for a batch of quarantine members
        (cdc_quarantine_members; each a select of whole landed tables in the quarantine's
        columns): their union with the quarantine_id, the hash of what identifies the
        record, its reason and its occurrence among identical ones (counted within a
        landed table, so a batch numbers its rows as the whole union would). -#}
with

unioned as (

    {% for member in members -%}
    {{ member }}
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
{%- endmacro %}
