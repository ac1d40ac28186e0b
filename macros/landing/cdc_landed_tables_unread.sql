{% macro cdc_landed_tables_unread() %}
    {#- Whether this Spark session has read no landed table yet. True only in a session that
        `cdc-dbt` started for this one command (it sets the session setting
        cdc.landed_tables.unread, python_udfs/cli.py), and only when first asked: the setting
        is cleared here, so any later dbt command in the same session (the test session,
        `cdc-dbt serve`, a caller's own session) is told false. register_landed_tables asks
        once per command, before it reads anything: a registration found unchanged is then
        not refreshed, since a table no query of the session has read has no file listing
        cached to forget. -#}
    {%- set found = run_query('set cdc.landed_tables.unread') -%}
    {%- set unread = found | length > 0 and (found.columns[1].values()[0] | string) == 'true' -%}
    {%- if unread -%}
        {%- do run_query('set cdc.landed_tables.unread = false') -%}
    {%- endif -%}
    {{ return(unread) }}
{% endmacro %}
