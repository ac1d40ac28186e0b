{#- One row per landed record that was kept out of the change log, from every
    source system, with the reason. Rebuilt each run, so a row leaves it once
    its cause is fixed (for example when the U of an orphan before-image
    arrives). #}

with

qlik_ct as (

    select * from {{ ref('int_qlik_ct__rows_quarantined') }}

),

idm_jdbc as (

    select * from {{ ref('int_idm_jdbc__rows_quarantined') }}

),

unioned as (

    select * from qlik_ct
    union all
    select * from idm_jdbc

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
    unioned.source_system,
    unioned.source_table,
    unioned.landed_table,
    unioned.raw_key,
    unioned.order_key,
    unioned.reason,
    unioned.record_json,
    unioned.loaded_at
from unioned
