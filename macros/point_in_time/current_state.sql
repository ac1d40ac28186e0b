{% macro current_state(table_name) %}
    {#- The whole body of dim_<table>_current (SCD1): the live rows of dim_<table>_history,
        one per key, i.e. its current versions that are not deleted (read from the 'current'
        partition only). Disabled when the table is not in var cdc_tables. -#}
    {%- if table_name not in cdc_history.cdc_var('cdc_tables') -%}
        {{ config(enabled=false) }}
    {%- else %}
select * except (valid_to_bucket)
from {{ ref('dim_' ~ table_name ~ '_history') }}
where valid_to_bucket = 'current' and is_current and not is_deleted
    {%- endif -%}
{%- endmacro %}
