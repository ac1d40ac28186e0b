{% macro cdc_tables_per_statement() %}
    {#- var cdc_tables_per_statement (default 25): how many tables one statement of a model
        that unions every table of a format writes at most (the Qlik change log, the
        quarantine's members); more tables are written by further statements of the same
        write (cdc_remember_later_batches, cdc_write_later_batches). A statement is one plan,
        which Spark analyses and optimises whole and, with adaptive execution, re-plans as
        its stages finish, so its cost grows faster than the tables it unions: at 100 tiny
        tables the log took 122 to 133 s as one statement, 85 to 92 s as four
        (BENCHMARKS.md section 57).
        A whole number of at least 1, checked by cdc_validate_vars while dbt parses. -#}
    {{ return(cdc_history.cdc_whole_number_var(
        'cdc_tables_per_statement', 25, 'cdc_tables_per_statement')) }}
{% endmacro %}
