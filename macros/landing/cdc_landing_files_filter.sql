{% macro cdc_landing_files_filter(source_system, landed, relation_alias) %}
    {#- In files mode, a condition on a landed table's rows: only the files that
        stg_<system>__landed_files found readable and like the reference file are read
        (a literal list of file names, so Spark prunes the other files before opening them:
        a truncated or mistyped file can never fail the query). Elsewhere: true. Calls ref()
        outside `execute` so dbt builds the file list first; the list is read once a run
        for all of a format's landed tables. -#}
    {%- set files_model = ref('stg_' ~ source_system ~ '__landed_files') -%}
    {%- if var(source_system ~ '_landing') != 'files' -%}
        {{ return('true') }}
    {%- endif -%}
    {%- if not execute -%}
        {{ return('true') }}
    {%- endif -%}
    {#- one query a run for all of the format's landed tables: the first model that asks
        reads the whole list (built earlier in the run: every caller depends on it) into a
        memo that the invocation's other models share (dbt gives every node the same
        `graph`; a new invocation parses a new one) -#}
    {%- set memo = graph.get('cdc_readable_landed_files') -%}
    {%- if memo is none -%}
        {%- set memo = {} -%}
        {%- do graph.update({'cdc_readable_landed_files': memo}) -%}
    {%- endif -%}
    {%- if source_system not in memo -%}
        {%- set by_table = {} -%}
        {%- for row in run_query(
            'select landed_table, file_name from ' ~ files_model
            ~ ' where is_read order by landed_table, file_name') -%}
            {%- do by_table.setdefault(row[0], []).append(row[1]) -%}
        {%- endfor -%}
        {%- do memo.update({source_system: by_table}) -%}
    {%- endif -%}
    {%- set names = memo[source_system].get(landed, []) -%}
    {%- if names | length == 0 -%}
        {{ return('false') }}
    {%- endif -%}
    {%- set literals = [] -%}
    {%- for name in names -%}
        {%- do literals.append(sql_string_literal(name)) -%}
    {%- endfor -%}
    {{ return(relation_alias ~ '._metadata.file_name in (' ~ literals | join(', ') ~ ')') }}
{% endmacro %}
