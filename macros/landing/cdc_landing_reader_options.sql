{% macro cdc_landing_reader_options(source_system) %}
    {#- The Spark reader options of a system's landed files (var <system>_landing_format):
        none for Parquet; for CSV the vendor's RFC 4180 dialect, overridable key by key with
        var <system>_landing_csv_options:
          header 'true'             every file starts with a header record (required)
          multiLine 'true'          a quoted value may hold newlines
          quote '"', escape '"'     a quote inside a quoted value is written twice ("")
          nullValue U+FFFF          no text holds this noncharacter, so only an unquoted
                                    empty field (which the parser reports as the null value)
                                    reads as NULL, and a quoted "" stays an empty string
          mode 'PERMISSIVE', columnNameOfCorruptRecord '_corrupt_record'
                                    a record with the wrong number of fields is kept whole
                                    in that column, and staging quarantines it
          encoding 'UTF-8'          a byte order mark is skipped
        JSON Lines (json): one record per line, read PERMISSIVE into the declared string
        columns, a line that is not a JSON object kept whole in _corrupt_record, UTF-8.
        Values are strings; every one reaches SQL through sql_string_literal. -#}
    {%- set file_format = cdc_history.cdc_var(source_system ~ '_landing_format', 'parquet') | lower -%}
    {%- if file_format == 'json' -%}
        {{ return({
            'mode': 'PERMISSIVE',
            'columnNameOfCorruptRecord': '_corrupt_record',
            'encoding': 'UTF-8'}) }}
    {%- endif -%}
    {%- if file_format != 'csv' -%}
        {{ return({}) }}
    {%- endif -%}
    {%- set options = {
        'header': 'true',
        'multiLine': 'true',
        'quote': '"',
        'escape': '"',
        'nullValue': '\uffff',
        'mode': 'PERMISSIVE',
        'columnNameOfCorruptRecord': '_corrupt_record',
        'encoding': 'UTF-8'} -%}
    {%- set overrides = cdc_history.cdc_var(source_system ~ '_landing_csv_options', {}) or {} -%}
    {%- if overrides is not mapping -%}
        {{ exceptions.raise_compiler_error(
            "cdc_landing_reader_options: var " ~ source_system ~ "_landing_csv_options must "
            ~ "map Spark CSV reader options to values, got " ~ overrides) }}
    {%- endif -%}
    {%- for key, value in overrides.items() -%}
        {%- if not cdc_history.cdc_is_identifier(key) -%}
            {{ exceptions.raise_compiler_error(
                "cdc_landing_reader_options: '" ~ key ~ "' in var " ~ source_system
                ~ "_landing_csv_options is not a reader option name") }}
        {%- endif -%}
        {%- do options.update({key: (value | string | lower if value is boolean else value | string)}) -%}
    {%- endfor -%}
    {%- if options['header'] | lower != 'true' -%}
        {{ exceptions.raise_compiler_error(
            "cdc_landing_reader_options: landed CSV files must start with a header record; "
            ~ "var " ~ source_system ~ "_landing_csv_options sets header to "
            ~ options['header']) }}
    {%- endif -%}
    {{ return(options) }}
{% endmacro %}
