{% macro cdc_source_system_config(source_system) %}
    {#- One source system's entry in var cdc_source_systems (the format registry), checked:
        registered; images_complete true or false; required_keys and optional_keys lists of
        names, required_keys holding source_system and key_columns; images_rebuildable
        (optional) true or false: the format's <system>_change_images plans each run with
        cdc_append_plan, so int_<table>__change_images may be imaged again whole
        (table_change_images adds the cdc_append_reset pre-hook); transactions_marked
        (optional, default true) true or false: false when the format's canonical log marks
        no transaction ends (txn_last always NULL) and flags no change
        transaction_incomplete, so every logged change is a transaction boundary
        (cdc_transaction_boundaries); source_system_values (optional, default [the format's
        name]) the non-empty list of source_system values its log rows carry, each a lower
        case name (cdc_is_table_name; GoldenGate's ogg_trail and ogg_json,
        cdc_source_system_values); column_encoding_default (optional) hex or base64, how
        the format's binary values landed as text hold their bytes unless a table's
        column_encodings says otherwise (cdc_column_encoding); images_ignore_inputs
        (optional) a list of model names that int_<table>__change_images reads but whose
        writes do not change what it reads of them (table_change_images: config meta
        cdc_inputs_ignore); hooks, the list of hooks the format provides
        (cdc_format_hook_names: change_images always; that each is a macro, and that no
        such macro is left out, cdc_validate_format_hooks checks once a command); settings
        (optional) the format's landing settings and options with their defaults, a mapping
        of lower case names (cdc_is_table_name), each read as var <system>_<setting>
        (cdc_var, cdc_format_setting_default); nothing else. -#}
    {%- set systems = cdc_history.cdc_var('cdc_source_systems', none) -%}
    {%- if systems is not mapping -%}
        {{ exceptions.raise_compiler_error(
            "cdc_source_system_config: var cdc_source_systems must map each source system to "
            ~ "{images_complete, required_keys, optional_keys}") }}
    {%- endif -%}
    {%- set registered = systems.keys() | map('string') | sort | join(', ') -%}
    {%- if source_system is not string or source_system not in systems -%}
        {{ exceptions.raise_compiler_error(
            "cdc_source_system_config: source system '" ~ source_system
            ~ "' is not registered in var cdc_source_systems (registered: " ~ registered
            ~ ")") }}
    {%- endif -%}
    {%- set system = systems[source_system] -%}
    {#- checked already in this command: the same entry object (cdc_invocation_memo) -#}
    {%- set checked = cdc_history.cdc_invocation_memo().setdefault('source_system_configs', {}) -%}
    {%- if source_system in checked and checked[source_system] is sameas system -%}
        {{ return(system) }}
    {%- endif -%}
    {%- set where = "cdc_source_system_config: var cdc_source_systems." ~ source_system -%}
    {%- if system is not mapping -%}
        {{ exceptions.raise_compiler_error(
            where ~ " must be a mapping with images_complete, required_keys, optional_keys") }}
    {%- endif -%}
    {%- for key in system -%}
        {%- if key not in ['images_complete', 'required_keys', 'optional_keys',
                           'images_rebuildable', 'transactions_marked',
                           'source_system_values', 'column_encoding_default',
                           'images_ignore_inputs', 'hooks', 'settings'] -%}
            {{ exceptions.raise_compiler_error(
                where ~ " has unknown key '" ~ key ~ "' (allowed keys: images_complete, "
                ~ "required_keys, optional_keys, images_rebuildable, transactions_marked, "
                ~ "source_system_values, column_encoding_default, images_ignore_inputs, "
                ~ "hooks, settings)") }}
        {%- endif -%}
    {%- endfor -%}
    {%- if system.get('images_complete') is not boolean -%}
        {{ exceptions.raise_compiler_error(
            where ~ ".images_complete must be true or false, got '"
            ~ system.get('images_complete') ~ "'") }}
    {%- endif -%}
    {%- if system.get('images_rebuildable', false) is not boolean -%}
        {{ exceptions.raise_compiler_error(
            where ~ ".images_rebuildable must be true or false, got '"
            ~ system.get('images_rebuildable') ~ "'") }}
    {%- endif -%}
    {%- if system.get('transactions_marked', true) is not boolean -%}
        {{ exceptions.raise_compiler_error(
            where ~ ".transactions_marked must be true or false, got '"
            ~ system.get('transactions_marked') ~ "'") }}
    {%- endif -%}
    {%- set values = system.get('source_system_values', [source_system]) -%}
    {%- set bad = [] -%}
    {%- if values is string or values is mapping or values is not iterable
          or values | length == 0 -%}
        {%- do bad.append(values) -%}
    {%- else -%}
        {%- for value in values if not cdc_history.cdc_is_table_name(value) -%}
            {%- do bad.append(value) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- if bad -%}
        {{ exceptions.raise_compiler_error(
            where ~ ".source_system_values must be a non-empty list of lower case names "
            ~ "(^[a-z][a-z0-9_]*$), got '" ~ values ~ "'") }}
    {%- endif -%}
    {%- if system.get('column_encoding_default', 'hex') not in ['hex', 'base64'] -%}
        {{ exceptions.raise_compiler_error(
            where ~ ".column_encoding_default must be hex or base64, got '"
            ~ system.get('column_encoding_default') ~ "'") }}
    {%- endif -%}
    {%- for list_key in ['required_keys', 'optional_keys', 'images_ignore_inputs'] -%}
        {%- set keys = system.get(list_key, []) -%}
        {%- if keys is string or keys is mapping or keys is not iterable
              or keys | reject('string') | list -%}
            {{ exceptions.raise_compiler_error(
                where ~ "." ~ list_key ~ " must be a list of "
                ~ ("model names" if list_key == 'images_ignore_inputs' else "key names")
                ~ ", got '" ~ keys ~ "'") }}
        {%- endif -%}
    {%- endfor -%}
    {%- for key in ['source_system', 'key_columns'] -%}
        {%- if key not in system.get('required_keys', []) -%}
            {{ exceptions.raise_compiler_error(
                where ~ ".required_keys must include '" ~ key ~ "'") }}
        {%- endif -%}
    {%- endfor -%}
    {%- set known_hooks = cdc_history.cdc_format_hook_names() -%}
    {%- set hooks = system.get('hooks', []) -%}
    {%- if hooks is string or hooks is mapping or hooks is not iterable
          or hooks | reject('string') | list
          or hooks | reject('in', known_hooks) | list -%}
        {{ exceptions.raise_compiler_error(
            where ~ ".hooks must be a list of the hooks the format provides, of "
            ~ known_hooks | join(', ') ~ "; got '" ~ hooks ~ "'") }}
    {%- endif -%}
    {%- set settings = system.get('settings', {}) -%}
    {%- set bad_names = [] -%}
    {%- for setting in (settings if settings is mapping else {})
          if not cdc_history.cdc_is_table_name(setting) -%}
        {%- do bad_names.append(setting) -%}
    {%- endfor -%}
    {%- if settings is not mapping or bad_names -%}
        {{ exceptions.raise_compiler_error(
            where ~ ".settings must map each setting's name (lower case, ^[a-z][a-z0-9_]*$; "
            ~ "var " ~ source_system ~ "_<name> overrides it) to its default, got '"
            ~ (bad_names | join(', ') if bad_names else settings) ~ "'") }}
    {%- endif -%}
    {%- if 'change_images' not in hooks -%}
        {{ exceptions.raise_compiler_error(
            where ~ ".hooks must include change_images (every format provides the macro "
            ~ source_system ~ "_change_images(table_name), docs/adding-a-source-format.md)") }}
    {%- endif -%}
    {%- do checked.update({source_system: system}) -%}
    {{ return(system) }}
{% endmacro %}
