{% macro cdc_landed_reference_files(source_system, names) %}
    {#- The reference file of each of a format's landed folders `names`, in one query (the
        table function cdc_landed_files over every folder, one union): {location: [file name,
        column list]}, a folder with no readable file left out (register_landed_folder then
        stops the run naming it). -#}
    {%- set file_format = var(source_system ~ '_landing_format') | lower -%}
    {%- set options = sql_string_literal(tojson(cdc_landing_reader_options(source_system))) -%}
    {%- set selects = [] -%}
    {%- for name in names -%}
        {%- set location = sql_string_literal(cdc_landing_location(source_system, name)) -%}
        {%- do selects.append(
            'select ' ~ location ~ ' as location, file_name, column_list from cdc_landed_files('
            ~ location ~ ', ' ~ sql_string_literal(file_format) ~ ', ' ~ options
            ~ ') where is_reference') -%}
    {%- endfor -%}
    {%- set references = {} -%}
    {%- if selects -%}
        {%- for row in run_query(selects | join(' union all ')) -%}
            {%- do references.update({row[0]: [row[1], row[2]]}) -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(references) }}
{% endmacro %}
