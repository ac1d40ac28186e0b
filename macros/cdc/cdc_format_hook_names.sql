{% macro cdc_format_hook_names() %}
    {#- The hooks a source format may provide, each a macro <system>_<hook> that the shared
        macros call, and which the format declares in its registry entry's `hooks`
        (cdc_source_system_config checks both ways): change_images(table_name) (every
        format: the body of int_<table>__change_images), table_columns(table_name) (a
        table's typed columns when cdc_tables does not declare them), landed_tables() (the
        landed folders files mode registers, their names checked), landed_table_name(folder)
        (the table name of a folder that need not be an identifier), landing_formats() (the
        file formats its files mode reads beyond parquet and csv), validate_vars() (its own
        vars, checked at parse time), table_replaces_staged(table_name) (a later load may
        replace a staged change), quarantine_members() (its quarantine as several selects,
        written a batch a statement). -#}
    {{ return([
        'change_images', 'table_columns', 'landed_tables', 'landed_table_name',
        'landing_formats', 'validate_vars', 'table_replaces_staged', 'quarantine_members'
    ]) }}
{% endmacro %}
