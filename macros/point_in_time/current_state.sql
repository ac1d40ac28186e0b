{% macro current_state(history) %}
    {#- The whole body of dim_<table>_current (SCD1): the live rows of dim_<table>_history,
        one per key, i.e. its current versions that are not deleted (read from the 'current'
        partition only). Disabled when the table is not in var cdc_tables.

        STUB: replaced by the restructure. The scaffold's dim_<table>_current.sql passes
        ref('dim_<table>_history'): a relation is read as is (the model file's ref()
        records the dependency), the table named by the model (dim_<table>_current); a
        table name keeps the old behaviour. -#}
    {%- set table_name = history if history is string else model.name[4:-8] -%}
    {%- if table_name not in var('cdc_tables') -%}
        {{ config(enabled=false) }}
    {%- else %}
select * except (valid_to_bucket)
from {{ ref('dim_' ~ table_name ~ '_history') if history is string else history }}
where valid_to_bucket = 'current' and is_current and not is_deleted
    {%- endif -%}
{%- endmacro %}
