{% macro register_landed_folder(
    source_system, schema, name, table_name=none, references=none, refresh=true
) %}
    {#- Registers the landed folder <var <system>_landing_root>/<name>/ as the external table
        <schema>.<table_name> (default <name>; an identifier either way), without copying.
        The folder name reaches SQL only inside string literals. Its columns are those of the folder's reference
        file (the oldest readable one, found by the table function cdc_landed_files): Spark's
        own reading of that Parquet file, or the CSV header as strings plus the corrupt-record
        column. Files that differ are never read (cdc_landing_files_filter) and are
        quarantined by the format's stg_<system>__landed_files. A folder with no readable
        file stops the run naming it. Rerunnable: an existing registration whose fingerprint
        (folder, format, reader options, reference file and its columns; the table property
        cdc.registration, read from the relation cache) is unchanged is only refreshed, so
        appended files are seen without a schema read and two metastore writes a folder on
        every run; a changed one is replaced; a managed table of the same name is never
        replaced. references: the reference files register_landed_tables found for all of
        a format's folders in one query ({location: [file name, column list]}); without it
        the folder's own query finds its reference file. refresh: false when the session has
        read no landed table yet (cdc_landed_tables_unread): an unchanged registration is
        then kept as it is, since there is no cached file listing to forget. -#}
    {%- set file_format = cdc_history.cdc_var(source_system ~ '_landing_format') | lower -%}
    {%- set location = cdc_history.cdc_landing_location(source_system, name) -%}
    {%- set options = cdc_history.cdc_landing_reader_options(source_system) -%}
    {%- set table_name = cdc_history.cdc_identifier(
        name if table_name is none else table_name, 'landed table ' ~ name) -%}
    {%- set relation = schema ~ '.' ~ table_name -%}
    {%- if references is none -%}
        {%- set files = run_query(
            'select file_name, column_list, problem from cdc_landed_files('
            ~ cdc_history.sql_string_literal(location) ~ ', ' ~ cdc_history.sql_string_literal(file_format) ~ ', '
            ~ cdc_history.sql_string_literal(tojson(options)) ~ ') where is_reference') -%}
    {%- else -%}
        {%- set files = [references[location]] if location in references else [] -%}
    {%- endif -%}
    {%- if files | length == 0 -%}
        {%- set listed = run_query(
            "select concat(file_name, ': ', coalesce(problem, 'readable')) from cdc_landed_files("
            ~ cdc_history.sql_string_literal(location) ~ ', ' ~ cdc_history.sql_string_literal(file_format) ~ ', '
            ~ cdc_history.sql_string_literal(tojson(options)) ~ ')') -%}
        {{ exceptions.raise_compiler_error(
            "register_landed_folder: no readable " ~ file_format ~ " file in " ~ location
            ~ " (the landed folder of " ~ name ~ "): "
            ~ (listed.columns[0].values() | join('; ') if listed | length else 'no files')) }}
    {%- endif -%}
    {%- set option_list = [] -%}
    {%- for key, value in options.items() -%}
        {%- do option_list.append(key ~ ' ' ~ cdc_history.sql_string_literal(value)) -%}
    {%- endfor -%}
    {#- the registration's fingerprint, kept in its table properties: the folder, format,
        reader options, reference file and its columns (as cdc_landed_files read them). A
        run that finds it unchanged only refreshes the table -#}
    {%- set fingerprint = local_md5(tojson([
        location, file_format, option_list, files[0][0], files[0][1]])) -%}
    {%- set existing = adapter.get_relation(database=none, schema=schema, identifier=table_name) -%}
    {%- if existing is not none -%}
        {#- its type and registration: as the relation cache read them when the run
            started, else described (cdc_relation_details) -#}
        {%- set kind = (cdc_history.cdc_relation_details(existing).get('Type') or '') | trim -%}
        {%- if kind and kind != 'EXTERNAL' -%}
            {{ exceptions.raise_compiler_error(
                "register_landed_folder: " ~ relation ~ " exists as a " ~ kind
                ~ " table; files mode will not replace it. Use another " ~ source_system
                ~ "_schema.") }}
        {%- endif -%}
        {%- if cdc_history.cdc_table_property(existing, 'cdc.registration') == fingerprint -%}
            {#- unchanged: only forget file listings this session may have cached -#}
            {%- if refresh -%}
                {%- do run_query('refresh table ' ~ relation) -%}
            {%- endif -%}
            {{ return('') }}
        {%- endif -%}
        {%- do run_query('drop table ' ~ relation) -%}
    {%- endif -%}
    {%- set reference = location.rstrip('/') ~ '/' ~ files[0][0] -%}
    {%- set columns = [] -%}
    {%- if file_format == 'parquet' -%}
        {%- set described = run_query(
            'describe query select * from parquet.' ~ cdc_history.cdc_quoted_path(reference)) -%}
        {%- for row in described -%}
            {%- do columns.append(cdc_history.cdc_quoted_name(row[0]) ~ ' ' ~ row[1]) -%}
        {%- endfor -%}
    {%- else -%}
        {%- for column in fromjson(files[0][1]) -%}
            {%- do columns.append(cdc_history.cdc_quoted_name(column[0]) ~ ' string') -%}
        {%- endfor -%}
        {%- do columns.append(cdc_history.cdc_quoted_name(options['columnNameOfCorruptRecord']) ~ ' string') -%}
    {%- endif -%}
    {%- set definition = '(' ~ columns | join(', ') ~ ') using ' ~ file_format
        ~ (' options (' ~ option_list | join(', ') ~ ')' if option_list else '')
        ~ ' location ' ~ cdc_history.sql_string_literal(location) -%}
    {%- do run_query(
        'create table ' ~ relation ~ ' ' ~ definition
        ~ ' tblproperties (' ~ cdc_history.sql_string_literal('cdc.registration') ~ ' = '
        ~ cdc_history.sql_string_literal(fingerprint) ~ ')') -%}
    {#- the relation cache learns the new table as the run's start would have listed it:
        the views that read it are fingerprinted by its columns (cdc_view_fingerprint) -#}
    {%- do cdc_history.cdc_cache_as_listed(api.Relation.create(
        database=none, schema=schema, identifier=table_name, type='table')) -%}
{% endmacro %}
