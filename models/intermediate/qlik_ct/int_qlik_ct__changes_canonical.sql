{{ config(enabled=cdc_source_system_enabled('qlik_ct')) }}
{#- One row per canonical change (spec F.1) from Qlik Replicate change tables:
    every valid I/U/D change with its before-image folded in, TRUNCATE rows as
    control changes, and the full-load rows as snapshot inserts at order_key
    000...0, in the canonical column order. A view over the partitioned table
    int_qlik_ct__changes_logged, the configured tables' partitions only. #}

select
    {{- cdc_select_columns(cdc_canonical_columns(), 'logged') }}
from {{ ref('int_qlik_ct__changes_logged') }} as logged
where logged.source_table in (
    {%- for table_name in cdc_tables_of('qlik_ct') %}
    {{ sql_string_literal(table_name) }}{{ ',' if not loop.last }}
    {%- endfor %}
)
