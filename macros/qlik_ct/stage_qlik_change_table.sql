{% macro stage_qlik_change_table(table_name) %}
    {#- The whole body of stg_qlik_ct__<table>: one row per delivered change-table row,
        typed, ordered, its mask decoded, and judged (invalid_reason, flags). Incremental:
        a run stages only rows whose (change_seq, change_oper) is not staged yet; exact
        duplicate deliveries collapse. Calls a Python UDF, so it is a table.

        Landed files (qlik_ct_landing: files): each row records its file (landed_file,
        landed_file_modified_at), and an incremental run reads only files not staged yet
        under that path and modification time, so its cost follows the new files, not the
        landing zone. A rewritten file is read again; its rows already staged are skipped. -#}
    {%- set layout = qlik_ct_layout(table_name) -%}
    {%- set prefix = var('qlik_ct_header_prefix') -%}
    {%- set seq = 'delivered.' ~ prefix ~ 'change_seq' -%}
    {%- set oper = 'delivered.' ~ prefix ~ 'change_oper' -%}
    {%- set header_count = layout.header_columns | length -%}
    {%- set data_names = layout.data_columns | map(attribute='name') | list -%}
    {%- set has_header = [] -%}
    {%- for name in ['stream_position', 'transaction_id', 'timestamp'] -%}
        {%- if prefix ~ name in layout.header_columns -%}{%- do has_header.append(name) -%}{%- endif -%}
    {%- endfor %}

    {%- set landed_files = var('qlik_ct_landing') == 'files' -%}
    {%- set staged_files = [] -%}
    {%- if landed_files and is_incremental() and execute -%}
        {%- set staged = run_query(
            "select distinct concat(landed_file, '@', cast(landed_file_modified_at as string))"
            ~ " from " ~ this ~ " where landed_file is not null") -%}
        {%- do staged_files.extend(staged.columns[0].values()) -%}
    {%- endif %}

{{ depends_on_landing_seed(table_name ~ '__ct') }}

with

source as (

    {# a filter on _metadata alone prunes whole files before they are read #}
    select
        landed.*,
        {% if landed_files -%}
        landed._metadata.file_path as landed_file,
        landed._metadata.file_modification_time as landed_file_modified_at
        {%- else -%}
        cast(null as string) as landed_file,
        cast(null as timestamp) as landed_file_modified_at
        {%- endif %}
    from {{ source('qlik_ct', table_name ~ '__ct') }} as landed
    {%- if staged_files %}
    where concat(
        landed._metadata.file_path, '@',
        cast(landed._metadata.file_modification_time as string)
    ) not in (
        {%- for file in staged_files %}
        {{ sql_string_literal(file) }}{{ ',' if not loop.last }}
        {%- endfor %}
    )
    {%- endif %}

),

new_rows as (

    select source.*
    from source
    {%- if is_incremental() %}
    left anti join {{ this }} as staged
        on staged.raw_key = concat_ws(
            '+',
            coalesce(source.{{ prefix }}change_seq, ''),
            coalesce(source.{{ prefix }}change_oper, '')
        )
    {%- endif %}

),

{# duplicated delivery: exact copies of one row collapse to one (the first file kept) #}
delivered as (

    select
        new_rows.* except (landed_file, landed_file_modified_at),
        min_by(
            named_struct(
                'file', new_rows.landed_file, 'modified_at', new_rows.landed_file_modified_at
            ),
            new_rows.landed_file
        ) as landed
    from new_rows
    group by
        {%- for name in layout.header_columns + data_names %}
        new_rows.{{ name }}{{ ',' if not loop.last }}
        {%- endfor %}

),

decoded as (

    select
        delivered.*,
        {{ qlik_ct_row_hash(table_name, 'delivered') }} as row_hash,
        {% if layout.mask_is_text -%}
        decode_hex_change_mask(
            delivered.{{ prefix }}change_mask,
            {{ layout.bit_count }},
            '{{ var("qlik_ct_hex_mask_byte_order") }}'
        ) as mask_decoded,
        {%- else -%}
        decode_change_mask(
            delivered.{{ prefix }}change_mask, {{ layout.bit_count }}
        ) as mask_decoded,
        {%- endif %}
        {# YYYYMMDDHHmmSShh: hh is hundredths of a second (spec A.3) #}
        try_cast(
            concat(
                substr({{ seq }}, 1, 4), '-', substr({{ seq }}, 5, 2), '-',
                substr({{ seq }}, 7, 2), ' ', substr({{ seq }}, 9, 2), ':',
                substr({{ seq }}, 11, 2), ':', substr({{ seq }}, 13, 2), '.',
                substr({{ seq }}, 15, 2)
            ) as timestamp
        ) as change_seq_at,
        count(*) over (
            partition by {{ seq }}, {{ oper }}
        ) as deliveries_with_this_key
    from delivered

),

typed as (

    select
        ---------- identity and lineage
        '{{ table_name }}' as source_table,
        concat_ws(
            '+',
            coalesce(decoded.{{ prefix }}change_seq, ''),
            coalesce(decoded.{{ prefix }}change_oper, '')
        ) as raw_key,

        decoded.row_hash,

        ---------- ordering (spec A.3): change_seq = time part + change number
        decoded.{{ prefix }}change_seq as order_key,
        decoded.change_seq_at,
        cast(
            substr(decoded.{{ prefix }}change_seq, 17, 19) as decimal(19, 0)
        ) as change_number,

        ---------- operation (spec A.4)
        decoded.{{ prefix }}change_oper as change_oper,
        decoded.{{ prefix }}operation as operation,
        coalesce(
            upper(decoded.{{ prefix }}operation) = 'TRUNCATE', false
        ) as is_truncate,

        ---------- transaction and stream
        {% if 'stream_position' in has_header -%}
        decoded.{{ prefix }}stream_position as stream_position,
        {%- else -%}
        cast(null as string) as stream_position,
        {%- endif %}
        {% if 'transaction_id' in has_header -%}
        decoded.{{ prefix }}transaction_id as transaction_id,
        {%- else -%}
        cast(null as string) as transaction_id,
        {%- endif %}

        ---------- timestamps, utc
        {# 1970-01-01 is a PostgreSQL placeholder, not a time (spec A.2) #}
        {% if 'timestamp' in has_header -%}
        case
            when
                cast(decoded.{{ prefix }}timestamp as timestamp)
                > timestamp '1970-01-01 00:00:00'
                then cast(decoded.{{ prefix }}timestamp as timestamp)
        end as op_ts,
        coalesce(
            cast(decoded.{{ prefix }}timestamp as timestamp)
            <= timestamp '1970-01-01 00:00:00',
            false
        ) as is_ts_placeholder,
        {%- else -%}
        cast(null as timestamp) as op_ts,
        false as is_ts_placeholder,
        {%- endif %}

        ---------- change mask (spec A.5)
        {% if layout.mask_is_text -%}
        upper(decoded.{{ prefix }}change_mask) as change_mask_hex,
        {%- else -%}
        hex(decoded.{{ prefix }}change_mask) as change_mask_hex,
        {%- endif %}
        decoded.mask_decoded.error as mask_error,
        transform(
            filter(decoded.mask_decoded.positions, bit -> bit >= {{ header_count }}),
            bit -> element_at(
                {{ sql_string_array(data_names) }}, bit - {{ header_count - 1 }}
            )
        ) as changed_columns,
        exists(
            decoded.mask_decoded.positions, bit -> bit < {{ header_count }}
        ) as has_header_bits,

        ---------- row image, typed
        {{ qlik_ct_typed_columns(table_name, 'decoded') }},

        ---------- lineage
        decoded.landed.file as landed_file,
        decoded.landed.modified_at as landed_file_modified_at,

        ---------- judgement inputs
        decoded.deliveries_with_this_key,
        decoded.{{ prefix }}change_seq is not null
        and decoded.{{ prefix }}change_seq rlike '^[0-9]{35}$'
        and decoded.change_seq_at is not null as is_change_seq_valid,
        {{ qlik_ct_cast_errors(table_name, 'decoded') }} as cast_errors

    from decoded

),

judged as (

    select
        typed.*,
        nullif(concat_ws(
            '; ',
            case
                when not typed.is_change_seq_valid
                    then 'change_seq is not 35 digits starting with a valid time'
            end,
            case
                when typed.is_truncate then null
                when typed.change_oper is null or typed.change_oper not in ('I', 'U', 'D', 'B')
                    then concat('unknown change_oper ', coalesce(typed.change_oper, 'NULL'))
            end,
            case
                when typed.is_truncate then null
                when
                    typed.change_oper in ('I', 'U', 'D', 'B')
                    and coalesce(upper(typed.operation), '') != case typed.change_oper
                        when 'I' then 'INSERT'
                        when 'U' then 'UPDATE'
                        when 'D' then 'DELETE'
                        when 'B' then 'BEFOREIMAGE'
                    end
                    then concat(
                        'operation ', coalesce(typed.operation, 'NULL'),
                        ' disagrees with change_oper ', typed.change_oper
                    )
            end,
            case
                when typed.mask_error is not null
                    then concat('bad change_mask: ', typed.mask_error)
            end,
            case
                when typed.deliveries_with_this_key > 1
                    then 'conflicting duplicate: another row has this change_seq and change_oper'
            end,
            {%- for name in layout.key_columns %}
            case
                when not typed.is_truncate and typed.{{ name }} is null
                    then 'null key value in {{ name }}'
            end,
            {%- endfor %}
            nullif(typed.cast_errors, '')
        ), '') as invalid_reason,
        filter(
            array(
                case when typed.is_ts_placeholder then 'ts_placeholder' end,
                case
                    when
                        typed.transaction_id is not null
                        and not typed.transaction_id rlike '^[0-9A-Fa-f]{32}$'
                        then 'transaction_id_not_32_hex'
                end,
                case
                    when
                        typed.change_oper = 'D'
                        and exists(
                            typed.changed_columns,
                            name -> not array_contains(
                                {{ sql_string_array(layout.key_columns) }}, name
                            )
                        )
                        then 'delete_mask_has_non_key_bits'
                end,
                case when typed.has_header_bits then 'mask_sets_header_bits' end
            ),
            flag -> flag is not null
        ) as flags
    from typed

),

final as (

    select
        judged.source_table,
        judged.raw_key,
        judged.row_hash,
        judged.order_key,
        judged.change_seq_at,
        judged.change_number,
        judged.change_oper,
        judged.operation,
        judged.is_truncate,
        judged.stream_position,
        judged.transaction_id,
        judged.op_ts,
        judged.change_mask_hex,
        judged.changed_columns,
        {% for column in layout.data_columns -%}
        judged.{{ column.name }},
        {% endfor -%}
        judged.invalid_reason,
        judged.invalid_reason is null as is_valid,
        judged.flags,
        judged.landed_file,
        judged.landed_file_modified_at,
        current_timestamp() as loaded_at
    from judged

)

select * from final
{% endmacro %}
