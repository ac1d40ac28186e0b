{% macro cdc_table_config(table_name) %}
    {#- One table's entry in var cdc_tables, checked against its source system's entry in
        var cdc_source_systems (cdc_source_system_config): the system is registered, every
        required key is there and no other key than its required_keys and optional_keys.
        The table name and snapshot_table become parts of model and file names, so each
        must pass cdc_is_table_name (^[a-z][a-z0-9_]*$, the rule `cdc-dbt scaffold` applies);
        other names reach SQL as identifiers, so key_columns (a non-empty list) and the names
        in columns, column_types, column_encodings and lob_columns must each pass
        cdc_is_identifier; a column type must be a plain Spark type name
        (int, string, decimal(10,2)); a column encoding is hex or base64 and, where columns
        are declared, names one of them typed binary; images_complete is true or false;
        duplicate_resolution (Qlik change tables) is quarantine or latest_load, and latest_load
        is not combined with bitemporal. The history options (track_history_columns, ...) are allowed for
        every system and checked against the columns by cdc_history_options. Key columns
        must be
        among the declared columns, if any, and neither list repeats a name (in any case).
        cdc_validate_tables runs this for every entry at parse time, from cdc_validate_config,
        which this calls first (once a command). An entry checked once is not checked again
        in the same command while the var values are the same objects
        (cdc_invocation_memo). -#}
    {%- do cdc_history.cdc_validate_config() -%}
    {%- set tables = cdc_history.cdc_var('cdc_tables', none) -%}
    {%- if tables is not mapping -%}
        {{ exceptions.raise_compiler_error(
            "cdc_table_config: var cdc_tables must map each table name to its settings") }}
    {%- endif -%}
    {%- if table_name not in tables -%}
        {{ exceptions.raise_compiler_error(
            "cdc_table_config: table '" ~ table_name ~ "' is not in var cdc_tables ("
            ~ (tables.keys() | map('string') | sort | join(', ')) ~ ")") }}
    {%- endif -%}
    {%- set where = "cdc_table_config: table '" ~ table_name ~ "' in var cdc_tables" -%}
    {%- set identifier_rule = "; names reach SQL as identifiers" -%}
    {%- set table_name_rule = " must match ^[a-z][a-z0-9_]*$ (lower case letters, digits and"
        ~ " underscores, a letter first): it becomes part of model and file names" -%}
    {%- if not cdc_history.cdc_is_table_name(table_name) -%}
        {{ exceptions.raise_compiler_error(where ~ ": the table name" ~ table_name_rule) }}
    {%- endif -%}
    {%- set table = tables[table_name] -%}
    {%- if table is not mapping -%}
        {{ exceptions.raise_compiler_error(
            where ~ " must be a mapping of settings (source_system, key_columns, ...)") }}
    {%- endif -%}

    {#- ---------- keys allowed by the source system -#}
    {%- set systems = cdc_history.cdc_var('cdc_source_systems', none) -%}
    {%- if systems is not mapping -%}
        {#- stops with the registry's own message -#}
        {%- do cdc_history.cdc_source_system_config(none) -%}
    {%- endif -%}
    {#- checked already in this command: the same entry and registry objects (a unit test's
        vars override them with others, which are checked) -#}
    {%- set checked = cdc_history.cdc_invocation_memo().setdefault('table_configs', {}) -%}
    {%- set known = checked.get(table_name) -%}
    {%- if known and known[0] is sameas table and known[1] is sameas systems -%}
        {{ return(table) }}
    {%- endif -%}
    {%- set registered = systems.keys() | map('string') | sort | join(', ') -%}
    {%- if 'source_system' not in table -%}
        {{ exceptions.raise_compiler_error(
            where ~ " lacks required key 'source_system' (registered source systems: "
            ~ registered ~ ")") }}
    {%- endif -%}
    {%- set source_system = table['source_system'] -%}
    {%- if source_system is not string or source_system not in systems -%}
        {{ exceptions.raise_compiler_error(
            where ~ ": source_system '" ~ source_system ~ "' is not registered in var "
            ~ "cdc_source_systems (registered: " ~ registered ~ ")") }}
    {%- endif -%}
    {%- set system = cdc_history.cdc_source_system_config(source_system) -%}
    {#- the history options (cdc_history_options) are the same for every source system -#}
    {%- set allowed = system.get('required_keys', []) + system.get('optional_keys', []) + [
        'track_history_columns', 'track_history_except_columns', 'ignore_null_updates',
        'suppress_duplicate_updates', 'bitemporal'] -%}
    {%- for key in table -%}
        {%- if key not in allowed -%}
            {{ exceptions.raise_compiler_error(
                where ~ " has unknown key '" ~ key ~ "'; allowed keys for source_system "
                ~ source_system ~ ": " ~ allowed | join(', ')) }}
        {%- endif -%}
    {%- endfor -%}
    {%- for key in system.get('required_keys', []) -%}
        {%- if key not in table -%}
            {{ exceptions.raise_compiler_error(
                where ~ " lacks required key '" ~ key ~ "' (source_system " ~ source_system
                ~ " requires: " ~ system.get('required_keys') | join(', ') ~ ")") }}
        {%- endif -%}
    {%- endfor -%}

    {#- ---------- names that reach SQL as identifiers -#}
    {%- set key_columns = table['key_columns'] -%}
    {%- if key_columns is string or key_columns is mapping or key_columns is not iterable
          or key_columns | length == 0 -%}
        {{ exceptions.raise_compiler_error(
            where ~ ": key_columns must be a non-empty list of column names in key order, got '"
            ~ key_columns ~ "'") }}
    {%- endif -%}
    {%- set named = {'key_columns': key_columns} -%}
    {%- for key in ['columns', 'column_types', 'column_encodings', 'lob_columns'] -%}
        {%- if key in table -%}
            {%- set names = table[key] -%}
            {%- set wanted = 'list' if key == 'lob_columns' else 'mapping' -%}
            {%- if names is string or names is not iterable
                  or (wanted == 'list' and names is mapping)
                  or (wanted == 'mapping' and names is not mapping) -%}
                {{ exceptions.raise_compiler_error(
                    where ~ ": " ~ key ~ " must be a "
                    ~ ('list of column names' if wanted == 'list'
                       else 'mapping of column name to type')
                    ~ ", got '" ~ names ~ "'") }}
            {%- endif -%}
            {%- do named.update({key: names | list}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- for key, names in named.items() -%}
        {%- set seen = [] -%}
        {%- for name in names -%}
            {%- if not cdc_history.cdc_is_identifier(name) -%}
                {{ exceptions.raise_compiler_error(
                    where ~ ": " ~ key ~ " name '" ~ name ~ "' is not an identifier "
                    ~ "(^[A-Za-z_][A-Za-z0-9_]*$)" ~ identifier_rule) }}
            {%- endif -%}
            {%- if name | lower in seen -%}
                {{ exceptions.raise_compiler_error(
                    where ~ ": " ~ key ~ " names '" ~ name ~ "' twice (names compare in lower "
                    ~ "case)") }}
            {%- endif -%}
            {%- do seen.append(name | lower) -%}
        {%- endfor -%}
    {%- endfor -%}
    {%- if 'columns' in named -%}
        {%- set declared = named['columns'] | map('lower') | list -%}
        {%- for name in key_columns -%}
            {%- if name | lower not in declared -%}
                {{ exceptions.raise_compiler_error(
                    where ~ ": key column '" ~ name ~ "' is not among its columns ("
                    ~ named['columns'] | join(', ') ~ ")") }}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {%- if 'snapshot_table' in table and not cdc_history.cdc_is_table_name(table['snapshot_table']) -%}
        {{ exceptions.raise_compiler_error(
            where ~ ": snapshot_table '" ~ table['snapshot_table'] ~ "'" ~ table_name_rule) }}
    {%- endif -%}

    {#- ---------- types and flags -#}
    {%- set types = [] -%}
    {%- for name, spec in table.get('columns', {}).items() -%}
        {%- do types.append((name, spec.get('type') if spec is mapping else spec)) -%}
    {%- endfor -%}
    {%- for name, data_type in table.get('column_types', {}).items() -%}
        {%- do types.append((name, data_type)) -%}
    {%- endfor -%}
    {%- for name, data_type in types -%}
        {%- if data_type is not string or modules.re.fullmatch(
                '[A-Za-z][A-Za-z0-9_]*( ?[(] ?[0-9]+ ?(, ?[0-9]+ ?)?[)])?', data_type) is none -%}
            {{ exceptions.raise_compiler_error(
                where ~ ": type '" ~ data_type ~ "' of column " ~ name ~ " is not a Spark type "
                ~ "name such as int, string, binary or decimal(10,2); it reaches SQL as a type") }}
        {%- endif -%}
    {%- endfor -%}
    {%- for name, encoding in table.get('column_encodings', {}).items() -%}
        {%- if encoding not in ['hex', 'base64'] -%}
            {{ exceptions.raise_compiler_error(
                where ~ ": column_encodings of column " ~ name ~ " must be hex or base64 "
                ~ "(how landed text holds the bytes of a binary column), got '" ~ encoding
                ~ "'") }}
        {%- endif -%}
        {#- declared columns: the encoded column is one of them, typed binary (a table
            without declared columns, Qlik's, is checked against its DDL by qlik_ct_layout) -#}
        {%- if 'columns' in table -%}
            {%- set typed = {} -%}
            {%- for column_name, data_type in types -%}
                {%- do typed.update({column_name | lower: data_type | lower}) -%}
            {%- endfor -%}
            {%- if name | lower not in typed -%}
                {{ exceptions.raise_compiler_error(
                    where ~ ": column_encodings names " ~ name ~ ", which is not among its "
                    ~ "columns (" ~ named['columns'] | join(', ') ~ ")") }}
            {%- elif typed[name | lower] != 'binary' -%}
                {{ exceptions.raise_compiler_error(
                    where ~ ": column_encodings names " ~ name ~ ", which is not a binary "
                    ~ "column (typed " ~ typed[name | lower] ~ ")") }}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if 'images_complete' in table and table['images_complete'] is not boolean -%}
        {{ exceptions.raise_compiler_error(
            where ~ ": images_complete must be true or false, got '"
            ~ table['images_complete'] ~ "'") }}
    {%- endif -%}
    {%- set resolution = table.get('duplicate_resolution', 'quarantine') -%}
    {%- if resolution not in ['quarantine', 'latest_load'] -%}
        {{ exceptions.raise_compiler_error(
            where ~ ": duplicate_resolution must be quarantine or latest_load, got '"
            ~ resolution ~ "'") }}
    {%- endif -%}
    {%- if resolution == 'latest_load' and table.get('bitemporal', false) is sameas true -%}
        {{ exceptions.raise_compiler_error(
            where ~ ": duplicate_resolution latest_load and bitemporal cannot be set together "
            ~ "yet (a superseded change would vanish from the record of what was known)") }}
    {%- endif -%}
    {%- if 'source_schema' in table
          and (table['source_schema'] is not string or table['source_schema'] == '') -%}
        {{ exceptions.raise_compiler_error(
            where ~ ": source_schema must be a non-empty name, got '" ~ table['source_schema']
            ~ "'") }}
    {%- endif -%}
    {%- do checked.update({table_name: [table, systems]}) -%}
    {{ return(table) }}
{% endmacro %}
