{% macro cdc_whole_number_var(name, default, checked_by) %}
    {#- The value of var `name` (else `default`) as an integer, after checking that it is a
        whole number of at least 1 (not a boolean, not text, not 2.5); else a compile error
        naming the var and the macro that reads it (`checked_by`). The one check behind
        cdc_key_move_chain_limit and cdc_tables_per_statement. -#}
    {%- set value = cdc_history.cdc_var(name, default) -%}
    {%- if value is boolean or value is not number or value != value | int or value < 1 -%}
        {{ exceptions.raise_compiler_error(
            checked_by ~ ": var " ~ name ~ " must be a whole number of at least 1, got "
            ~ value) }}
    {%- endif -%}
    {{ return(value | int) }}
{% endmacro %}
