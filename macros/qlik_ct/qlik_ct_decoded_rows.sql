{% macro qlik_ct_decoded_rows(table_name, layout) %}
    {#- CTEs of stage_qlik_change_table after `delivered`, ending in `typed`: the change mask
        decoded by the Python UDF (binary, or hex text in the configured byte order) into
        column names, change_seq split into its time (spec A.3: YYYYMMDDHHmmSShh, hh in
        hundredths) and change number, the header fields renamed, the row image typed, and
        the inputs of the judgement (deliveries of the same key, cast errors; with
        duplicate_resolution latest_load, the landing times of the key's deliveries: a row
        landed not from files counts as landed at 0001-01-01, so rows of one table landing
        tie and none is kept). -#}
    {%- set prefix = cdc_history.cdc_var('qlik_ct_header_prefix') -%}
    {%- set seq = 'delivered.' ~ prefix ~ 'change_seq' -%}
    {%- set oper = 'delivered.' ~ prefix ~ 'change_oper' -%}
    {%- set header_count = layout.header_columns | length -%}
    {%- set data_names = layout.data_columns | map(attribute='name') | list -%}
    {%- set has_header = [] -%}
    {%- for name in ['stream_position', 'transaction_id', 'timestamp'] -%}
        {%- if prefix ~ name in layout.header_columns -%}{%- do has_header.append(name) -%}{%- endif -%}
    {%- endfor %}
decoded as (

    select
        delivered.*,
        {% if layout.mask_is_text -%}
        decode_hex_change_mask(
            delivered.{{ prefix }}change_mask,
            {{ layout.bit_count }},
            {{ cdc_history.sql_string_literal(cdc_history.cdc_var('qlik_ct_hex_mask_byte_order')) }}
        ) as mask_decoded,
        {%- else -%}
        decode_change_mask(
            delivered.{{ prefix }}change_mask, {{ layout.bit_count }}
        ) as mask_decoded,
        {%- endif %}
        try_cast(
            concat(
                substr({{ seq }}, 1, 4), '-', substr({{ seq }}, 5, 2), '-',
                substr({{ seq }}, 7, 2), ' ', substr({{ seq }}, 9, 2), ':',
                substr({{ seq }}, 11, 2), ':', substr({{ seq }}, 13, 2), '.',
                substr({{ seq }}, 15, 2)
            ) as timestamp
        ) as change_seq_at,
        {# same partitioning as the dedupe window: no second shuffle. A malformed CSV
           record's fields mean nothing: it is no delivery of its key #}
        {% if layout.malformed_column -%}
        count(
            case when delivered.{{ layout.malformed_column }} is null then 1 end
        ) over (
        {%- else -%}
        count(*) over (
        {%- endif %}
            partition by {{ seq }}, {{ oper }}
        ) as deliveries_with_this_key
        {%- if cdc_history.qlik_ct_keeps_latest_load(table_name) %},
        {# duplicate_resolution latest_load: the landing times of this key's deliveries
           (NULL when not landed from files), which decide which one is kept #}
        collect_list(
            {%- if layout.malformed_column %}
            case
                when delivered.{{ layout.malformed_column }} is null
                    then coalesce(delivered.landed.modified_at, timestamp '0001-01-01')
            end
            {%- else %}
            coalesce(delivered.landed.modified_at, timestamp '0001-01-01')
            {%- endif %}
        ) over (
            partition by {{ seq }}, {{ oper }}
        ) as delivery_load_times
        {%- endif %}
    from delivered

),

typed as (

    select
        ---------- identity and lineage
        {{ cdc_history.sql_string_literal(table_name) }} as source_table,
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
                {{ cdc_history.sql_string_array(data_names) }}, bit - {{ header_count - 1 }}
            )
        ) as changed_columns,
        exists(
            decoded.mask_decoded.positions, bit -> bit < {{ header_count }}
        ) as has_header_bits,

        ---------- row image, typed
        {{ cdc_history.qlik_ct_typed_columns(layout, 'decoded') }},

        ---------- lineage
        {{ cdc_history.cdc_malformed_record('decoded', layout.malformed_column) }}
            as malformed_record,
        decoded.landed.file as landed_file,
        decoded.landed.modified_at as landed_file_modified_at,

        ---------- judgement inputs
        decoded.deliveries_with_this_key,
        decoded.conflicts_with_staged,
        {%- if cdc_history.qlik_ct_keeps_latest_load(table_name) %}
        coalesce(decoded.landed.modified_at, timestamp '0001-01-01') as delivery_load_time,
        decoded.delivery_load_times,
        {%- endif %}
        decoded.{{ prefix }}change_seq is not null
        and decoded.{{ prefix }}change_seq rlike '^[0-9]{35}$'
        and decoded.change_seq_at is not null as is_change_seq_valid,
        {{ cdc_history.qlik_ct_cast_errors(layout, 'decoded') }} as cast_errors

    from decoded

),
{%- endmacro %}
