{% macro assert_udfs_registered() %}
    {#- on-run-start guard: the Python UDFs exist only in a session started by cdc-dbt. -#}
    {%- if execute -%}
        {%- for name in cdc_history.cdc_python_udfs() -%}
            {%- set found = run_query("show user functions like " ~ cdc_history.sql_string_literal(name)) -%}
            {%- if found | length == 0 -%}
                {{ exceptions.raise_compiler_error(
                    "The Python UDF '" ~ name ~ "' is not registered in this Spark session. "
                    ~ "Run dbt through the project's entry point, which starts Spark, registers "
                    ~ "the UDFs and then runs dbt in-process with the same arguments: "
                    ~ "`cdc-dbt " ~ (invocation_args_dict.get('which') or 'build') ~ " ...` "
                    ~ "(or bin/pipeline). Plain `dbt` cannot see Python UDFs."
                ) }}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
{% endmacro %}
