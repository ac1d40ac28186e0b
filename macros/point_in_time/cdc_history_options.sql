{% macro cdc_history_options(table_name, columns) %}
    {#- The history options of one table (var cdc_tables, the same keys for every source
        system, docs/history-options.md), checked against its typed `columns`
        (cdc_table_columns) and resolved:
        - tracked: the column names whose change opens a new version, or none when every
          change does (no option set);
        - ignore_null: the column names whose NULL in an update (U) keeps the previous
          value;
        - bitemporal: whether the table records system time (int_<table>__history_known,
          dim_<table>_history_bitemporal, <table>_as_of(point, known_at);
          docs/history-options.md, "Bitemporal history").

        The keys: track_history_columns (the tracked columns) or
        track_history_except_columns (every column but these), never both;
        suppress_duplicate_updates (true: an update that changes no column opens no
        version, i.e. every column is tracked); ignore_null_updates (true for every non-key
        column, or a list of columns); bitemporal (true or false). A column named in any of them must be one of the
        table's columns; a key column can be neither untracked nor ignored (a key never
        changes within its versions, and an update always carries it). -#}
    {%- set table = cdc_history.cdc_table_config(table_name) -%}
    {%- set where = "cdc_history_options: table '" ~ table_name ~ "' in var cdc_tables" -%}
    {%- set names = columns | map(attribute='name') | list -%}
    {%- set keys = columns | selectattr('is_key') | map(attribute='name') | list -%}
    {%- set non_keys = columns | rejectattr('is_key') | map(attribute='name') | list -%}
    {#- while parsing, a table without declared columns has only its key for columns
        (cdc_table_columns): its names are checked when its models compile -#}
    {%- set checked = execute or table.get('columns') -%}
    {%- set listed = {} -%}
    {%- for option in ['track_history_columns', 'track_history_except_columns',
                       'ignore_null_updates'] -%}
        {%- set value = table.get(option) -%}
        {%- if value is none or (option == 'ignore_null_updates' and value is boolean) -%}
            {%- do listed.update({option: value}) -%}
        {%- elif value is string or value is mapping or value is not iterable
              or value | length == 0 -%}
            {{ exceptions.raise_compiler_error(
                where ~ ": " ~ option ~ " must be a non-empty list of column names"
                ~ (" or true/false" if option == 'ignore_null_updates' else '')
                ~ ", got '" ~ value ~ "'") }}
        {%- else -%}
            {%- set lowered = [] -%}
            {%- for name in value -%}
                {%- if name is not string or (checked and name | lower not in names) -%}
                    {{ exceptions.raise_compiler_error(
                        where ~ ": " ~ option ~ " names '" ~ name ~ "', which is not one of "
                        ~ "its columns (" ~ names | join(', ') ~ ")") }}
                {%- endif -%}
                {%- if option != 'track_history_columns' and name | lower in keys -%}
                    {{ exceptions.raise_compiler_error(
                        where ~ ": " ~ option ~ " names key column '" ~ name ~ "'; a key "
                        ~ "column is always tracked and never NULL in an update") }}
                {%- endif -%}
                {%- do lowered.append(name | lower) -%}
            {%- endfor -%}
            {%- do listed.update({option: lowered}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if listed.track_history_columns is not none
          and listed.track_history_except_columns is not none -%}
        {{ exceptions.raise_compiler_error(
            where ~ ": set track_history_columns or track_history_except_columns, not both") }}
    {%- endif -%}
    {%- set suppress = table.get('suppress_duplicate_updates', false) -%}
    {%- if suppress is not boolean -%}
        {{ exceptions.raise_compiler_error(
            where ~ ": suppress_duplicate_updates must be true or false, got '" ~ suppress
            ~ "'") }}
    {%- endif -%}

    {%- set bitemporal = table.get('bitemporal', false) -%}
    {%- if bitemporal is not boolean -%}
        {{ exceptions.raise_compiler_error(
            where ~ ": bitemporal must be true or false, got '" ~ bitemporal ~ "'") }}
    {%- endif -%}

    {%- set tracked = none -%}
    {%- if listed.track_history_columns is not none -%}
        {%- set tracked = names | select('in', listed.track_history_columns) | list
            if checked else listed.track_history_columns -%}
    {%- elif listed.track_history_except_columns is not none -%}
        {%- set tracked = names | reject('in', listed.track_history_except_columns) | list -%}
    {%- elif suppress -%}
        {%- set tracked = names -%}
    {%- endif -%}
    {%- set ignore_null = listed.ignore_null_updates -%}
    {%- if ignore_null is sameas true -%}
        {%- set ignore_null = non_keys -%}
    {%- elif ignore_null is none or ignore_null is sameas false -%}
        {%- set ignore_null = [] -%}
    {%- endif -%}
    {{ return({'tracked': tracked, 'ignore_null': ignore_null, 'bitemporal': bitemporal}) }}
{% endmacro %}
