{% macro current_state(history) %}
    {#- The whole body of dim_<table>_current (SCD1): the live rows of a dim_*_history model,
        one per key, i.e. its current versions that are not deleted (read from the 'current'
        partition only). -#}
    {%- if history is none -%}
        {{ exceptions.raise_compiler_error("current_state: history (a ref) is required") }}
    {%- endif %}
select * except (valid_to_bucket)
from {{ history }}
where valid_to_bucket = 'current' and is_current and not is_deleted
{%- endmacro %}
