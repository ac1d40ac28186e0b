{% macro cdc_is_identifier(name) %}
    {#- True when `name` is text matching ^[A-Za-z_][A-Za-z0-9_]*$ (whole string; a trailing
        line feed does not pass): the one rule for configured names that reach SQL as
        identifiers (tables, columns, schemas). Values go through sql_string_literal. -#}
    {{ return(name is string
              and modules.re.fullmatch('[A-Za-z_][A-Za-z0-9_]*', name) is not none) }}
{% endmacro %}
