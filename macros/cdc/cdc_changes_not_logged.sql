{% macro cdc_changes_not_logged(changes) %}
    {#- The body of an incremental int_<source_system>__changes_canonical's last CTE: the
        rows of `changes` (a CTE name) whose change_id the model does not hold yet; every row
        on a first or --full-refresh run. A change staged again is never logged twice. -#}
    select {{ changes }}.*
    from {{ changes }}
    {%- if is_incremental() %}
    left anti join {{ this }} as loaded
        on {{ changes }}.change_id = loaded.change_id
    {%- endif %}
{%- endmacro %}
