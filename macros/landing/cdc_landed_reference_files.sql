{% macro cdc_landed_reference_files(source_system, names) %}
    {#- The reference file of each of a format's landed folders `names`, in one query
        (cdc_landed_files_in_folders): {location: [file name, column list]}, a folder with no
        readable file left out (register_landed_folder then stops the run naming it). -#}
    {%- set references = {} -%}
    {%- if names | length > 0 -%}
        {%- for row in run_query(
            'select location, file_name, column_list from ('
            ~ cdc_history.cdc_landed_files_in_folders(source_system, names) ~ ') where is_reference') -%}
            {%- do references.update({row[0]: [row[1], row[2]]}) -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(references) }}
{% endmacro %}
