{{
    config(
        enabled=cdc_source_system_enabled('goldengate'),
        pre_hook=["{{ cdc_write_started('loaded_at') }}"],
        post_hook=["{{ cdc_write_finished() }}"]
    )
}}
{#- One row per landed decoded trail record (spec E.1, seed 004): the trail
    position, the header fields typed, the table name and the images and tokens
    parsed into text maps. record_error lists what is wrong with the record by
    itself (a field that is not of its type or outside its values, an unknown
    IOType, a BeforeAfter that contradicts the operation, an image that is not a
    JSON object); a Hdr-Ind other than E is kept apart (is_extract_record false):
    the record is not data, wherever it sits. Append-only: a record whose
    position and content are staged already is not staged again. Landed files:
    each record records its file (landed_file, landed_file_modified_at) and a
    run reads only the files not staged yet under that path and modification
    time (cdc_files_not_staged), so its cost follows the new files; a file
    rewritten in place is read again, its records already staged skipped. #}
{%- set landed_name = cdc_var('goldengate_trail_table') %}
{%- set has_trail = 'trail' in goldengate_forms() %}
{%- set fields = goldengate_trail_fields() %}
{%- set malformed = cdc_landing_malformed_column('goldengate') %}
{%- set io_names = goldengate_io_type_map('name') %}
{%- set io_kinds = goldengate_io_type_map('kind') %}
{#- Logdump's IO time: 2024/03/01 12:00:00.000.000 (milli.micro) #}
{%- set logdump_time = '^[0-9]{4}/[0-9]{2}/[0-9]{2} '
    ~ '[0-9:]{8}[.][0-9]{3}[.][0-9]{3}$' %}
{%- set logdump_fraction = '([0-9]{2}:[0-9]{2}:[0-9]{2})'
    ~ '[.]([0-9]{3})[.]([0-9]{3})$' %}
{%- if has_trail %}
{#- one query a run: the files staged already #}
{%- set not_staged = cdc_files_not_staged('goldengate', 'landed') %}
{{ depends_on_landing_seed(landed_name, 'goldengate') }}
{%- endif %}

with

landed as (

    {% if has_trail -%}
    select
        {{ sql_string_literal(landed_name) }} as landed_table,
        {%- for field in fields %}
        cast(landed.{{ cdc_quoted_name(field[0]) }} as string)
            as {{ field[1] }},
        {%- endfor %}
        {{ cdc_malformed_record('landed', malformed) }}
            as malformed_record,
        {{ cdc_landed_file_columns('goldengate') }}
    from {{ source('goldengate', 'trail_records') }} as landed
    where
        {{ cdc_landing_files_filter('goldengate', landed_name, 'landed') }}
        and {{ not_staged }}
    {%- else -%}
    select
        cast(null as string) as landed_table,
        {%- for field in fields %}
        cast(null as string) as {{ field[1] }},
        {%- endfor %}
        cast(null as string) as malformed_record,
        cast(null as string) as landed_file,
        cast(null as timestamp) as landed_file_modified_at
    where false
    {%- endif %}

),

hashed as (

    select
        landed.*,
        sha2(to_json(named_struct(
            {%- for field in fields %}
            {{ sql_string_literal(field[1]) }}, landed.{{ field[1] }},
            {%- endfor %}
            'malformed_record', landed.malformed_record
        )), 256) as record_hash
    from landed

),

copies_numbered as (

    {# the same record at the same position landed again (a file copied
       twice, a replayed batch) is staged once #}
    select
        hashed.*,
        row_number() over (
            partition by
                hashed.trail_seqno_text,
                hashed.trail_rba_text,
                hashed.record_hash
            order by hashed.landed_file, hashed.landed_file_modified_at
        ) as copy_number
    from hashed

),

new_records as (

    select copies_numbered.*
    from copies_numbered
    {% if is_incremental() %}
    left anti join {{ this }} as staged
        on
            copies_numbered.landed_table = staged.landed_table
            and copies_numbered.record_hash = staged.record_hash
    {% endif %}
    where copies_numbered.copy_number = 1

),

typed as (

    select
        ---------- where the record is (spec E.3: trail order)
        new_records.landed_table,
        concat_ws(
            '/',
            coalesce(new_records.trail_seqno_text, '?'),
            coalesce(new_records.trail_rba_text, '?')
        ) as record_id,
        new_records.record_hash,
        try_cast(trim(new_records.trail_seqno_text) as bigint) as trail_seqno,
        try_cast(trim(new_records.trail_rba_text) as bigint) as trail_rba,

        ---------- header (spec E.1)
        new_records.hdr_ind_text as header_indicator,
        try_cast(trim(new_records.undo_flag_text) as int) as undo_flag,
        try_cast(trim(new_records.rec_length_text) as int) as record_length,
        try_cast(trim(new_records.io_type_text) as int) as io_type,
        try_cast(trim(new_records.trans_ind_text) as int) as trans_ind,
        try_cast(trim(new_records.syskey_len_text) as int) as syskey_length,
        try_cast(trim(new_records.audit_rba_text) as bigint) as audit_rba,
        try_cast(trim(new_records.audit_pos_text) as bigint) as audit_pos,
        upper(trim(new_records.continued_text)) as continued,
        try_cast(trim(new_records.rec_count_text) as int) as rec_count,
        new_records.partition_text as partition_indicator,
        upper(trim(new_records.before_after_text)) as before_after,
        {# Logdump writes 2024/03/01 12:00:00.000.000 (milli.micro); the zone
           is unconfirmed (spec F.7 item 22): read as UTC #}
        case
            when
                regexp_replace(
                    trim(new_records.io_time_text), '/', '-'
                ) rlike {{ sql_string_literal(cdc_timestamp_pattern()) }}
                or trim(new_records.io_time_text)
                rlike {{ sql_string_literal(logdump_time) }}
                then try_cast(
                    regexp_replace(
                        regexp_replace(
                            trim(new_records.io_time_text),
                            '^([0-9]{4})/([0-9]{2})/([0-9]{2})',
                            '$1-$2-$3'
                        ),
                        {{ sql_string_literal(logdump_fraction) }},
                        '$1.$2$3'
                    ) as timestamp
                )
        end as io_time,
        new_records.orig_node_text as orig_node,
        upper(trim(new_records.format_type_text)) as format_type,
        new_records.incomplete_text as incomplete_indicator,

        ---------- what the record carries
        trim(new_records.table_name) as source_table_name,
        from_json(
            new_records.before_image_json, 'map<string, string>'
        ) as before_map,
        from_json(
            new_records.after_image_json, 'map<string, string>'
        ) as after_map,
        from_json(new_records.tokens_json, 'map<string, string>') as tokens,

        ---------- as landed
        new_records.trail_seqno_text,
        new_records.trail_rba_text,
        new_records.undo_flag_text,
        new_records.rec_length_text,
        new_records.io_type_text,
        new_records.trans_ind_text,
        new_records.syskey_len_text,
        new_records.audit_rba_text,
        new_records.audit_pos_text,
        new_records.continued_text,
        new_records.rec_count_text,
        new_records.before_after_text,
        new_records.io_time_text,
        new_records.format_type_text,
        new_records.before_image_json,
        new_records.after_image_json,
        new_records.tokens_json,
        new_records.malformed_record,
        new_records.landed_file,
        new_records.landed_file_modified_at
    from new_records

),

classified as (

    select
        typed.*,
        {{ io_names }}[typed.io_type] as io_type_name,
        {{ io_kinds }}[typed.io_type] as io_kind,
        coalesce(typed.header_indicator = 'E', false) as is_extract_record
    from typed

),

judged as (

    select
        classified.*,
        nullif(concat_ws(
            '; ',
            case
                when classified.malformed_record is not null
                    then {{ cdc_malformed_reason() }}
            end,
            case
                when classified.header_indicator is null
                    then 'Hdr-Ind is missing: not a record written by Extract'
                when not classified.is_extract_record
                    then concat(
                        'Hdr-Ind is ', classified.header_indicator,
                        ', not E: not a record written by Extract (seed 004)'
                    )
            end,
            case
                when classified.trail_seqno_text is null
                    then 'trail_seqno is missing'
            end,
            {{ goldengate_integer_error(
                'classified.trail_seqno_text', 'trail_seqno',
                0, 9999999999) }},
            case
                when classified.trail_rba_text is null
                    then 'trail_rba is missing'
            end,
            {{ goldengate_integer_error(
                'classified.trail_rba_text', 'trail_rba',
                0, 99999999999999999999) }},
            case
                when classified.io_type_text is null then 'IOType is missing'
            end,
            {{ goldengate_integer_error(
                'classified.io_type_text', 'IOType', 0, 255) }},
            case
                when classified.trans_ind_text is null
                    then 'TransInd is missing'
            end,
            {{ goldengate_integer_error(
                'classified.trans_ind_text', 'TransInd', 0, 3) }},
            {{ goldengate_integer_error(
                'classified.undo_flag_text', 'UndoFlag', 0, 1) }},
            {{ goldengate_integer_error(
                'classified.rec_length_text', 'RecLength', 0, 2147483647) }},
            {{ goldengate_integer_error(
                'classified.syskey_len_text', 'SyskeyLen', 0, 8) }},
            {{ goldengate_integer_error(
                'classified.audit_rba_text', 'AuditRBA') }},
            {{ goldengate_integer_error(
                'classified.audit_pos_text', 'AuditPos') }},
            {{ goldengate_integer_error(
                'classified.rec_count_text', 'RecCount', 1, 2147483647) }},
            case
                when
                    coalesce(classified.continued, 'N') not in ('Y', 'N')
                    then concat(
                        'Continued ', classified.continued_text,
                        ' is not Y or N'
                    )
            end,
            case
                when
                    classified.before_after is null
                    or classified.before_after not in ('A', 'B')
                    then concat(
                        'BeforeAfter ',
                        coalesce(classified.before_after_text, 'missing'),
                        ' is not A or B'
                    )
            end,
            case
                when
                    coalesce(classified.format_type, 'R') not in ('R', 'F')
                    then concat(
                        'FormatType ', classified.format_type_text,
                        ' is not R or F'
                    )
            end,
            case
                when
                    classified.io_time_text is not null
                    and classified.io_time is null
                    then concat(
                        'IOTime ', left(classified.io_time_text, 60),
                        ' is not a time'
                    )
            end,
            case
                when
                    classified.io_type is not null
                    and classified.io_kind is null
                    then concat(
                        'IOType ', classified.io_type,
                        ' is not a known code (spec E.2): kept for review'
                    )
            end,
            {# inserts are always A, deletes always B; a unified key update is
               marked A (seed 004, spec E.6) #}
            case
                when
                    classified.io_kind = 'I'
                    and classified.before_after = 'B'
                    then 'BeforeAfter B on an insert'
                when
                    classified.io_kind = 'D'
                    and classified.before_after = 'A'
                    then 'BeforeAfter A on a delete'
                when
                    classified.io_type = 135
                    and classified.before_after = 'B'
                    then 'BeforeAfter B on a unified key update (IOType 135)'
            end,
            case
                when
                    classified.io_kind in ('I', 'U', 'D')
                    and coalesce(classified.source_table_name, '') = ''
                    then 'a row change without a table name'
            end,
            case
                when
                    classified.before_image_json is not null
                    and classified.before_map is null
                    then 'before_image is not a JSON object'
                when
                    classified.io_kind in ('I', 'U')
                    and classified.before_after = 'A'
                    and classified.before_map is not null
                    and classified.io_type not in (115, 135)
                    then concat(
                        'an after image record (IOType ', classified.io_type,
                        ') carries a before_image; ',
                        'only key updates (115, 135) do'
                    )
            end,
            case
                when
                    classified.after_image_json is not null
                    and classified.after_map is null
                    then 'after_image is not a JSON object'
                when
                    classified.before_after = 'B'
                    and classified.after_map is not null
                    then concat(
                        'a before image record (BeforeAfter B) carries ',
                        'an after_image'
                    )
            end,
            case
                when
                    classified.tokens_json is not null
                    and classified.tokens is null
                    then 'tokens is not a JSON object'
            end,
            case
                when
                    classified.io_kind = 'I' and classified.after_map is null
                    then 'an insert without after_image'
                when
                    classified.io_kind = 'D' and classified.before_map is null
                    then 'a delete without before_image'
                when
                    classified.io_kind = 'U'
                    and classified.before_after = 'A'
                    and classified.after_map is null
                    then 'an update without after_image'
                when
                    classified.io_kind = 'U'
                    and classified.before_after = 'B'
                    and classified.before_map is null
                    then 'an update before image without before_image'
            end
        ), '') as record_error,
        current_timestamp() as loaded_at
    from classified

)

select * from judged
