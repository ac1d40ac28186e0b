{% macro cdc_is_identifier(name) %}
    {#- True when `name` is text matching ^[A-Za-z_][A-Za-z0-9_]*$ (whole string; a trailing
        line feed does not pass): the rule for configured names that reach SQL as
        identifiers (columns, schemas, landed tables). The names in var cdc_tables follow the
        stricter cdc_is_table_name. Values go through sql_string_literal. -#}
    {{ return(name is string
              and modules.re.fullmatch('[A-Za-z_][A-Za-z0-9_]*', name) is not none) }}
{% endmacro %}
