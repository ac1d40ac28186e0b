{{ config(enabled=cdc_source_system_enabled('goldengate')) }}
{#- One row per canonical change (spec F.1, F.4 columns E1 and E2) from the
    GoldenGate trail records and Big Data JSON messages that passed judgement,
    in the canonical column order: a view over the table
    int_goldengate__changes_logged, which is written by trail file. #}

select
    {{- cdc_select_columns(cdc_canonical_columns(), 'logged') }}
from {{ ref('int_goldengate__changes_logged') }} as logged
