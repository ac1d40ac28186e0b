{% macro stage_full_snapshot(table_name) %}
    {#- The whole body of stg_full_snapshot__<table>: one row per distinct landed row of the
        table's full snapshots (docs/full-snapshots.md), typed and judged. The snapshot a
        row belongs to is named by its file (the name before the first '__', or before the
        extension) or by cdc_tables snapshot_column, and must be a time (full_snapshot_time)
        or, with snapshot_id version, a version number (full_snapshot_order_key). Each
        configured column is cast from the landed value to its declared type (a binary
        column landed as text read with its column_encodings entry) and carried as canonical
        text in row_values.
        Incremental (append): files mode reads only the files not staged yet; rows that
        are copies of staged rows (the same snapshot and values) are not staged again. A
        snapshot is applied whole, once: other rows landed later for a snapshot an
        earlier run staged are kept out, with the reason. Invalid (quarantined): a
        malformed CSV record, a snapshot id that is not a time, a NULL key value, a value
        that does not convert to its type, and every row of a key that one snapshot
        holds more than once with other values. Files mode, snapshots named by their
        files: a snapshot whose files hold no row is staged as one row without a key
        (is_key_known false, valid), so the keys of the snapshot before it end there.
        Disabled when the table is not a full_snapshot table of var cdc_tables. -#}
    {%- set configured = cdc_history.cdc_var('cdc_tables').get(table_name) -%}
    {%- if configured is none or configured.get('source_system') != 'full_snapshot' -%}
    {{ config(enabled=false) }}
    {%- else -%}
    {%- set settings = cdc_history.full_snapshot_table_settings(table_name) -%}
    {{- config(
        pre_hook=["{{ cdc_history.cdc_write_started('loaded_at') }}"],
        post_hook=["{{ cdc_history.cdc_write_finished() }}"],
        meta={'cdc_landed_inputs': {
            'source_system': 'full_snapshot', 'tables': [settings.landed_table]}}
    ) -}}
    {%- set files_mode = cdc_history.cdc_var('full_snapshot_landing') == 'files' -%}
    {%- set relation = source('full_snapshot', settings.landed_table) -%}
    {%- set columns = cdc_history.cdc_table_columns(table_name) -%}
    {%- set key_columns = cdc_history.cdc_key_columns(table_name) -%}
    {%- set malformed_column = cdc_history.cdc_landing_malformed_column('full_snapshot') -%}
    {#- the landed type of each column: a binary column landed as text is decoded -#}
    {%- set landed_types = {} -%}
    {%- if execute -%}
        {%- for column in adapter.get_columns_in_relation(relation) -%}
            {%- do landed_types.update({column.name | lower: column.data_type | lower}) -%}
        {%- endfor -%}
    {%- endif -%}
    {%- set snapshot_text = 'cast(source.' ~ cdc_history.cdc_quoted_name(settings.snapshot_column)
        ~ ' as string)' if settings.snapshot_column
        else "regexp_extract(source.landed_file_name, '^(.*?)(__.*|[.][^.]*)?$', 1)" -%}
    {%- set snapshot_from = 'column ' ~ settings.snapshot_column if settings.snapshot_column
        else 'file name' -%}
    {%- set landed_filter = cdc_history.cdc_landing_files_filter(
            'full_snapshot', settings.landed_table, 'landed')
        ~ ' and ' ~ cdc_history.cdc_files_not_staged('full_snapshot', 'landed', check_columns=false) -%}
    {#- files mode, snapshots named by their files: the files of this batch that hold rows
        (asked apart, by name only: a second reference to the landed rows in the model's
        query made staging half as slow again), so a snapshot none of whose files does is
        known to be empty -#}
    {%- set marks_empty = files_mode and not settings.snapshot_column -%}
    {%- set files_with_rows = [] -%}
    {%- if marks_empty and execute -%}
        {%- set files_with_rows = run_query(
            'select distinct landed._metadata.file_name from ' ~ relation
            ~ ' as landed where ' ~ landed_filter).columns[0].values() -%}
    {%- endif -%}
    {#- and the snapshots those files name: the staged rows a copy can be of are read by
        a literal list, so Parquet's min/max of order_key skips the other snapshots' files -#}
    {%- set batch_order_keys = [] -%}
    {%- if marks_empty and execute and is_incremental() and files_with_rows -%}
        {%- set batch_order_keys = run_query(
            'select distinct '
            ~ cdc_history.full_snapshot_order_key(snapshot_text.replace(
                'source.landed_file_name', 'named.file_name'), settings.snapshot_id)
            ~ " from (select explode(array("
            ~ cdc_history.sql_string_list(files_with_rows) ~ ')) as file_name) as named'
        ).columns[0].values() -%}
    {%- endif %}

{{ cdc_history.depends_on_landing_seed(settings.landed_table, 'full_snapshot') }}

with

source as (

    select
        landed.*,
        {%- if files_mode %}
        landed._metadata.file_name as landed_file_name,
        {%- else %}
        cast(null as string) as landed_file_name,
        {%- endif %}
        {{ cdc_history.cdc_landed_file_columns('full_snapshot') }}
    from {{ relation }} as landed
    where {{ landed_filter }}

),

texts as (

    select
        {{ snapshot_text }} as snapshot_text,
        {%- for column in columns %}
        source.{{ cdc_history.cdc_quoted_name(column.name) }} as value_{{ loop.index }},
        {%- endfor %}
        {{ cdc_history.cdc_malformed_record('source', malformed_column) }} as malformed_record,
        source.landed_file,
        source.landed_file_modified_at
    from source

),

typed as (

    select
        texts.*,
        {{ cdc_history.full_snapshot_at('texts.snapshot_text', settings.snapshot_id) }} as snapshot_at,
        {{ cdc_history.full_snapshot_order_key('texts.snapshot_text', settings.snapshot_id) }}
            as order_key,
        {%- for column in columns %}
        {%- set raw = 'texts.value_' ~ loop.index %}
        {%- if column.type == 'binary' and landed_types.get(column.name) == 'string' %}
        {%- set encoding = cdc_history.cdc_column_encoding(table_name, column.name) %}
        {%- if encoding is none %}
        {{ exceptions.raise_compiler_error(
            "full_snapshot: binary column " ~ column.name ~ " of " ~ table_name
            ~ " is landed as text: cdc_tables." ~ table_name
            ~ ".column_encodings must say how it holds the bytes (hex or base64)") }}
        {%- endif %}
        {%- set error_text = cdc_history.cdc_binary_text_error(column.name, encoding) %}
        {%- elif column.type == 'string' %}
        {%- set encoding = none %}
        {%- set error_text = none %}
        {%- else %}
        {%- set encoding = none %}
        {%- set error_text = 'value of ' ~ column.name ~ ' does not convert to ' ~ column.type %}
        {%- endif %}
        {%- set typed_value = cdc_history.cdc_typed_value(raw, column.type, encoding) %}
        {{ cdc_history.cdc_value_text(typed_value, column.type) }} as text_{{ loop.index }},
        {%- if error_text %}
        case
            when {{ raw }} is not null and {{ typed_value }} is null
                then {{ cdc_history.sql_string_literal(error_text) }}
        end as error_{{ loop.index }}{{ ',' if not loop.last }}
        {%- else %}
        cast(null as string) as error_{{ loop.index }}{{ ',' if not loop.last }}
        {%- endif %}
        {%- endfor %}
    from texts

),

imaged as (

    select
        typed.snapshot_text,
        typed.snapshot_at,
        typed.order_key,
        map(
            {%- for column in columns %}
            {{ cdc_history.sql_string_literal(column.name) }}, typed.text_{{ loop.index }}
            {{- ',' if not loop.last }}
            {%- endfor %}
        ) as row_values,
        typed.malformed_record,
        typed.landed_file,
        typed.landed_file_modified_at,
        concat_ws(
            '; ',
            {%- for name in key_columns %}
            {%- set position = (columns | map(attribute='name') | list).index(name) + 1 %}
            case
                when typed.text_{{ position }} is null and typed.error_{{ position }} is null
                    then {{ cdc_history.sql_string_literal('null key value in ' ~ name) }}
            end,
            {%- endfor %}
            {%- for column in columns %}
            typed.error_{{ loop.index }},
            {%- endfor %}
            cast(null as string)
        ) as value_errors,
        {%- for name in key_columns %}
        {%- set position = (columns | map(attribute='name') | list).index(name) + 1 %}
        typed.text_{{ position }} is not null{{ ' and' if not loop.last }}
        {%- endfor %} as is_key_known
    from typed

),

identified as (

    select
        imaged.*,
        {{ cdc_history.cdc_pk_string_of_map(cdc_history.cdc_pk_map(key_columns, 'imaged.row_values')) }}
            as pk_string,
        sha2(to_json(named_struct(
            'snapshot', coalesce(imaged.order_key, concat('id:', imaged.snapshot_text)),
            'row', imaged.row_values,
            'malformed', imaged.malformed_record
        )), 256) as row_hash
    from imaged

),

distinct_rows as (

    {# a row landed twice (two copies of a file, a file landed again) is one row #}
    select * except (copy_number)
    from (
        select
            identified.*,
            row_number() over (
                partition by identified.row_hash
                order by identified.landed_file, identified.landed_file_modified_at
            ) as copy_number
        from identified
    )
    where copy_number = 1

),

{%- if is_incremental() %}

staged as (

    {# the staged rows of the snapshots this batch has rows of (a copy can only be
       of those) #}
    select this_table.row_hash, this_table.order_key
    from {{ this }} as this_table
    {%- if marks_empty %}
    {%- set named_keys = batch_order_keys | reject('none') | list %}
    where
        {{ 'this_table.order_key in (' ~ cdc_history.sql_string_list(named_keys) ~ ')'
           if named_keys else 'false' }}
        {%- if none in batch_order_keys %}
        or this_table.order_key is null
        {%- endif %}
    {%- else %}
    left semi join (
        select distinct distinct_rows.order_key from distinct_rows
    ) as batch_snapshots
        on this_table.order_key <=> batch_snapshots.order_key
    {%- endif %}

),

applied_snapshots as (

    select distinct staged.order_key
    from staged
    where staged.order_key is not null

),
{%- endif %}

{%- if marks_empty %}

listed_snapshots as (

    {# the snapshot each readable file of the folder names #}
    select
        named.snapshot_text,
        {{ cdc_history.full_snapshot_at('named.snapshot_text', settings.snapshot_id) }} as snapshot_at,
        {{ cdc_history.full_snapshot_order_key('named.snapshot_text', settings.snapshot_id) }}
            as order_key,
        named.file_name,
        named.file_path,
        named.modified_at
    from (
        select
            {{ snapshot_text.replace('source.landed_file_name', 'listed.file_name') }}
                as snapshot_text,
            listed.file_name,
            listed.file_path,
            listed.modified_at
        from {{ ref('stg_full_snapshot__landed_files') }} as listed
        where
            listed.landed_table = {{ cdc_history.sql_string_literal(settings.landed_table) }}
            and listed.is_read
    ) as named

),

empty_snapshots as (

    {# a snapshot whose files hold no row (the table was empty when it was taken):
       one row without a key that names it, so its keys end there. Only a snapshot
       nothing of which is staged or in this batch #}
    select
        timed.snapshot_text,
        timed.snapshot_at,
        timed.order_key,
        cast(null as map<string, string>) as row_values,  -- noqa: LT01
        cast(null as string) as malformed_record,
        timed.file_path as landed_file,
        timed.modified_at as landed_file_modified_at,
        '' as value_errors,
        false as is_key_known,
        cast(null as string) as pk_string,
        sha2(concat('empty snapshot ', timed.order_key), 256) as row_hash
    from (
        select
            min_by(listed_snapshots.snapshot_text, listed_snapshots.file_path)
                as snapshot_text,
            min(listed_snapshots.snapshot_at) as snapshot_at,
            listed_snapshots.order_key,
            min(listed_snapshots.file_path) as file_path,
            min_by(listed_snapshots.modified_at, listed_snapshots.file_path) as modified_at
        from listed_snapshots
        where listed_snapshots.order_key is not null
        group by listed_snapshots.order_key
        having count_if(
            {%- if files_with_rows %}
            listed_snapshots.file_name in ({{ cdc_history.sql_string_list(files_with_rows) }})
            {%- else %}
            false
            {%- endif %}
        ) = 0
    ) as timed
    {%- if is_incremental() %}
    left anti join (
        select distinct this_table.order_key from {{ this }} as this_table
    ) as staged_snapshots
        on timed.order_key = staged_snapshots.order_key
    {%- endif %}

),
{%- endif %}

new_rows as (

    select distinct_rows.*
    from distinct_rows
    {%- if is_incremental() %}
    left anti join staged
        on distinct_rows.row_hash = staged.row_hash
    {%- endif %}
    {%- if marks_empty %}

    union all

    select * from empty_snapshots
    {%- endif %}

),

counted as (

    select
        new_rows.*,
        {%- if is_incremental() %}
        applied_snapshots.order_key is not null as is_applied_snapshot,
        {%- else %}
        false as is_applied_snapshot,
        {%- endif %}
        count(*) over (
            partition by new_rows.order_key, new_rows.pk_string
        ) as rows_with_this_key
    from new_rows
    {%- if is_incremental() %}
    left join applied_snapshots
        on new_rows.order_key = applied_snapshots.order_key
    {%- endif %}

),

judged as (

    select
        {{ cdc_history.sql_string_literal(table_name) }} as source_table,
        {{ cdc_history.sql_string_literal(settings.landed_table) }} as landed_table,
        counted.snapshot_text,
        counted.snapshot_at,
        counted.order_key,
        counted.pk_string,
        counted.row_values,
        counted.row_hash,
        counted.malformed_record,
        counted.landed_file,
        counted.landed_file_modified_at,
        counted.malformed_record is null
        and counted.order_key is not null
        and not counted.is_applied_snapshot as is_in_snapshot,
        counted.is_key_known,
        case
            when counted.malformed_record is not null
                then {{ cdc_history.cdc_malformed_reason() }}
            when counted.order_key is null
                then concat(
                    'snapshot id ', coalesce(counted.snapshot_text, 'NULL'),
                    {{ cdc_history.sql_string_literal(' (from the ' ~ snapshot_from ~ ') is not a '
                        ~ ('version number' if settings.snapshot_id == 'version'
                           else 'time')) }}
                )
            when counted.is_applied_snapshot
                then concat(
                    'snapshot ', counted.snapshot_text,
                    ' was applied by an earlier run: a snapshot is applied whole, once,',
                    ' and rows landed for it later are kept out'
                )
            when counted.value_errors != '' then counted.value_errors
            when counted.rows_with_this_key > 1
                then concat(
                    'duplicate key: ', counted.rows_with_this_key,
                    ' rows of snapshot ', counted.snapshot_text, ' have this key'
                )
        end as invalid_reason
    from counted

),

final as (

    select
        judged.*,
        judged.invalid_reason is null as is_valid,
        current_timestamp() as loaded_at
    from judged

)

select * from final
    {%- endif -%}
{%- endmacro %}
