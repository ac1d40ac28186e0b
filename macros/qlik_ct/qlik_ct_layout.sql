{% macro qlik_ct_layout(table_name) %}
    {#- The change table's physical layout, read from its DDL once per dbt command, not once
        per model (spec A.5: count the header columns, never hard-code 7). Remembered in
        `graph`, which every node of the command shares, under the command's invocation_id:
        a table's ten models and their tests describe its change table once, not eight
        times (about 0.05 s each). Every node that reads the layout runs after what can
        change the change table within a command (the on-run-start registration of landed
        folders; with seeds, the seed, which its staging depends on).
        Returns a dict:
          header_columns: names with the header prefix before the first data column
          data_columns:   [{name, source_type, type, encoding, is_key}] in change-table
                          order; encoding (hex | base64, cdc_tables column_encodings): a
                          binary column landed as text
          key_columns:    configured key, in key order
          bit_count:      every change-table column (bit N = column ordinal N)
          mask_is_text:   the mask landed as hex text (CSV) rather than binary
          malformed_column: landed CSV: the reader's corrupt-record column (a record it
                          could not split into the table's fields), else none
        A column's type is the landed one unless cdc_tables gives it (column_types, or the
        declared `columns`); declared columns must be exactly the change table's data
        columns. Outside execution (parsing) it returns a placeholder built from the key. -#}
    {%- set memo_key = invocation_id ~ ' ' ~ table_name -%}
    {%- set memo = (graph.setdefault('cdc_qlik_ct_layouts', {})
                    if execute and graph is mapping else {}) -%}
    {%- if memo_key in memo -%}
        {{ return(memo[memo_key]) }}
    {%- endif -%}
    {%- set table = cdc_history.cdc_table_config(table_name) -%}
    {%- set prefix = cdc_history.cdc_var('qlik_ct_header_prefix') -%}
    {%- set key_columns = cdc_history.cdc_key_columns(table_name) -%}
    {%- set configured_types = {} -%}
    {%- set declared = table.get('columns') or {} -%}
    {%- for name, spec in declared.items() -%}
        {%- do configured_types.update(
            {name | lower: (spec.get('type') if spec is mapping else spec)}) -%}
    {%- endfor -%}
    {%- for name, data_type in table.get('column_types', {}).items() -%}
        {%- do configured_types.update({name | lower: data_type}) -%}
    {%- endfor -%}
    {%- set encodings = {} -%}
    {%- for name, encoding in table.get('column_encodings', {}).items() -%}
        {%- do encodings.update({name | lower: encoding}) -%}
    {%- endfor -%}
    {%- if not execute -%}
        {%- set data_columns = [] -%}
        {%- for name in key_columns -%}
            {%- do data_columns.append(
                {'name': name, 'source_type': 'string', 'type': 'string', 'encoding': none,
                 'is_key': true}) -%}
        {%- endfor -%}
        {{ return({'header_columns': [prefix ~ 'change_seq'], 'data_columns': data_columns,
                   'key_columns': key_columns, 'bit_count': 1 + data_columns | length,
                   'mask_is_text': false, 'malformed_column': none}) }}
    {%- endif -%}
    {#- the landed relation itself, not source(): callers downstream of staging (marts,
        their unit tests) read the layout without depending on the source node -#}
    {%- set relation = api.Relation.create(
        schema=cdc_history.cdc_var('qlik_ct_schema'), identifier=table_name ~ '__ct') -%}
    {%- set columns = adapter.get_columns_in_relation(relation) -%}
    {%- if columns | length == 0 -%}
        {{ exceptions.raise_compiler_error(
            "qlik_ct_layout: the change table " ~ relation ~ " of table '" ~ table_name
            ~ "' does not exist or has no columns (var qlik_ct_landing is '"
            ~ cdc_history.cdc_var('qlik_ct_landing') ~ "')") }}
    {%- endif -%}
    {%- set header_columns = [] -%}
    {%- set data_columns = [] -%}
    {%- set mask_types = [] -%}
    {%- set malformed = [] -%}
    {%- set malformed_name = cdc_history.cdc_landing_malformed_column('qlik_ct') -%}
    {%- for column in columns -%}
        {%- if malformed_name and column.name | lower == malformed_name -%}
            {%- do malformed.append(malformed_name) -%}
            {%- continue -%}
        {%- endif -%}
        {#- landed names reach SQL as identifiers: checked, never pasted blind -#}
        {%- set name = cdc_history.cdc_identifier(
            column.name | lower, 'column ' ~ column.name ~ ' of ' ~ relation) -%}
        {%- if data_columns | length == 0 and name.startswith(prefix) -%}
            {%- do header_columns.append(name) -%}
            {%- if name == prefix ~ 'change_mask' -%}
                {%- do mask_types.append(column.data_type | lower) -%}
            {%- endif -%}
        {%- else -%}
            {%- set data_type = (configured_types.get(name) or column.data_type) | lower -%}
            {#- an encoding says how landed TEXT holds bytes; landed binary is taken as is -#}
            {%- set encoding = encodings.get(name)
                if column.data_type | lower == 'string' else none -%}
            {%- if encodings.get(name) and data_type != 'binary' -%}
                {{ exceptions.raise_compiler_error(
                    "qlik_ct_layout: column_encodings of table '" ~ table_name ~ "' names "
                    ~ name ~ ", which is not a binary column (typed " ~ data_type ~ ")") }}
            {%- endif -%}
            {%- if not encoding and data_type == 'binary'
                  and column.data_type | lower == 'string' -%}
                {{ exceptions.raise_compiler_error(
                    "qlik_ct_layout: column " ~ name ~ " of table '" ~ table_name ~ "' is typed "
                    ~ "binary but landed as text: say how the text holds the bytes in var "
                    ~ "cdc_tables, column_encodings: {" ~ name ~ ": hex} (Replicate's file "
                    ~ "target) or base64") }}
            {%- endif -%}
            {%- do data_columns.append({
                'name': name,
                'source_type': column.data_type | lower,
                'type': data_type,
                'encoding': encoding,
                'is_key': name in key_columns}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- for required in ['change_seq', 'change_oper', 'change_mask', 'operation'] -%}
        {%- if prefix ~ required not in header_columns -%}
            {{ exceptions.raise_compiler_error(
                "qlik_ct_layout: " ~ relation ~ " has no header column " ~ prefix ~ required
                ~ " before its data columns (columns: "
                ~ (columns | map(attribute='name') | join(', ')) ~ ")") }}
        {%- endif -%}
    {%- endfor -%}
    {%- set data_names = data_columns | map(attribute='name') | list -%}
    {%- for name in key_columns -%}
        {%- if name not in data_names -%}
            {{ exceptions.raise_compiler_error(
                "qlik_ct_layout: key column '" ~ name ~ "' of table '" ~ table_name
                ~ "' is not a column of " ~ relation) }}
        {%- endif -%}
    {%- endfor -%}
    {%- if declared -%}
        {%- set declared_names = declared.keys() | map('lower') | list -%}
        {%- if declared_names != data_names -%}
            {{ exceptions.raise_compiler_error(
                "qlik_ct_layout: the columns declared for table '" ~ table_name
                ~ "' in var cdc_tables (" ~ declared_names | join(', ')
                ~ ") are not the data columns of " ~ relation ~ " in order ("
                ~ data_names | join(', ') ~ ")") }}
        {%- endif -%}
    {%- endif -%}
    {%- set layout = {'header_columns': header_columns, 'data_columns': data_columns,
                      'key_columns': key_columns,
                      'bit_count': header_columns | length + data_columns | length,
                      'mask_is_text': mask_types[0] == 'string',
                      'malformed_column': malformed[0] if malformed else none} -%}
    {%- do memo.update({memo_key: layout}) -%}
    {{ return(layout) }}
{% endmacro %}
