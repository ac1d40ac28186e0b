{% macro cdc_is_table_name(name) %}
    {#- True when `name` is text matching ^[a-z][a-z0-9_]*$ (whole string; a trailing line
        feed does not pass): the rule for the names in var cdc_tables and their
        snapshot_table, which become parts of model, relation and file names. The same
        rule as `cdc-dbt scaffold` (python_udfs/scaffold.py TABLE_NAME; test_scaffold.py
        checks they agree): Spark folds relation names to lower case, file names keep
        theirs. Other configured names (columns, schemas) follow cdc_is_identifier. -#}
    {{ return(name is string
              and modules.re.fullmatch('[a-z][a-z0-9_]*', name) is not none) }}
{% endmacro %}
