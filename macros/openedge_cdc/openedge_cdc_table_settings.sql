{% macro openedge_cdc_table_settings(table_name) %}
    {#- One OpenEdge table's settings from var cdc_tables, checked (spec D.5, D.9):
        policy_level 0 to 3; source_table_number a non-negative integer (_File-Number),
        unique among the OpenEdge tables; change_table an identifier (default
        cdc_<table>); a level 0/1 table (no values) has one key column, filled from the
        tracking row's _Recid, and images_complete is never true for it. Returns
        {level, table_number, change_table, has_values, key_columns, columns}. -#}
    {%- set table = cdc_history.cdc_table_config(table_name) -%}
    {%- set where = "openedge_cdc_table_settings: table '" ~ table_name ~ "' in var cdc_tables" -%}
    {%- set level = table.get('policy_level') -%}
    {%- if level is not number or level is boolean or level not in [0, 1, 2, 3] -%}
        {{ exceptions.raise_compiler_error(
            where ~ ": policy_level must be 0, 1, 2 or 3 (spec D.5), got '" ~ level ~ "'") }}
    {%- endif -%}
    {%- set number = table.get('source_table_number') -%}
    {%- if number is not number or number is boolean or number < 0 or number != number | int -%}
        {{ exceptions.raise_compiler_error(
            where ~ ": source_table_number must be the source table's _File-Number, a "
            ~ "non-negative integer, got '" ~ number ~ "'") }}
    {%- endif -%}
    {%- for other in cdc_history.cdc_tables_of('openedge_cdc') if other != table_name -%}
        {%- if cdc_history.cdc_table_config(other).get('source_table_number') == number -%}
            {{ exceptions.raise_compiler_error(
                where ~ ": source_table_number " ~ number ~ " is also table '" ~ other
                ~ "'s") }}
        {%- endif -%}
    {%- endfor -%}
    {%- set change_table = table.get('change_table', 'cdc_' ~ table_name) -%}
    {%- do cdc_history.cdc_identifier(change_table, where ~ ", change_table") -%}
    {%- set key_columns = cdc_history.cdc_key_columns(table_name) -%}
    {%- if level < 2 and key_columns | length != 1 -%}
        {{ exceptions.raise_compiler_error(
            where ~ ": a level-" ~ level ~ " policy records no values, so the table's one "
            ~ "key column holds _Recid; key_columns has " ~ key_columns | length) }}
    {%- endif -%}
    {%- if level < 2 and table.get('images_complete') -%}
        {{ exceptions.raise_compiler_error(
            where ~ ": images_complete cannot be true at policy level " ~ level
            ~ " (no values are recorded, spec D.5)") }}
    {%- endif -%}
    {{ return({
        'level': level,
        'table_number': number | int,
        'change_table': change_table,
        'has_values': level >= 2,
        'key_columns': key_columns,
        'columns': cdc_history.cdc_table_columns(table_name)
    }) }}
{% endmacro %}
