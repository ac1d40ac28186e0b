{% macro qlik_ct_judged_rows(layout, lob_columns=[], latest_load=false) %}
    {#- The CTE `judged` of stage_qlik_change_table: every spec A.12 rule that makes a row
        invalid becomes a '; '-joined invalid_reason (NULL when valid); warnings that do not
        block a row become flags. An INSERT whose mask lacks a data column other than the
        lob_columns is invalid (seed 000: every inserted column has its bit set; a whole
        table of them is the sign of a wrong var qlik_ct_hex_mask_byte_order).
        Rows with one change_seq and change_oper and other content (conflicting duplicates)
        are all invalid; with latest_load (duplicate_resolution: latest_load) the one whose
        file landed last is kept (flag latest_load_kept) and the others are invalid as
        superseded, unless the latest landing time is shared (then all are invalid, as
        without the option). A row conflicting with one an earlier run staged is flagged
        supersedes_staged, and kept unless this run superseded it: the staged one is
        superseded either way (qlik_ct_staged_rows). -#}
    {#- latest_load: this row is its key's only delivery of the latest landing time -#}
    {%- set kept -%}
        size(filter(
            typed.delivery_load_times, load_time -> load_time >= typed.delivery_load_time
        )) = 1
    {%- endset -%}
    {%- set mask_columns = [] -%}
    {%- for column in layout.data_columns if column.name not in lob_columns -%}
        {%- do mask_columns.append(column.name) -%}
    {%- endfor %}
judged as (

    select
        typed.*,
        case
            when typed.malformed_record is not null
                then {{ cdc_history.cdc_malformed_reason() }}
        else nullif(concat_ws(
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
                when
                    typed.change_oper = 'I'
                    and not typed.is_truncate
                    and size(array_except(
                        {{ cdc_history.sql_string_array(mask_columns) }}, typed.changed_columns
                    )) > 0
                    then concat(
                        'insert mask does not mark every column: lacks ',
                        array_join(array_except(
                            {{ cdc_history.sql_string_array(mask_columns) }}, typed.changed_columns
                        ), ', ')
                    )
            end,
            {%- if latest_load %}
            case
                when typed.deliveries_with_this_key = 1 then null
                when typed.delivery_load_time < array_max(typed.delivery_load_times)
                    then 'superseded: a row with this change_seq and change_oper and other '
                    || 'content landed later (duplicate_resolution latest_load)'
                when size(filter(
                    typed.delivery_load_times, load_time -> load_time = typed.delivery_load_time
                )) > 1
                    then 'conflicting duplicate: another row has this change_seq and change_oper '
                    || 'and landed at the same time, so none is the latest load'
            end,
            {%- else %}
            case
                when typed.conflicts_with_staged
                    then 'conflicting late duplicate: a row with this change_seq and '
                    || 'change_oper was staged by an earlier run with other content'
            end,
            case
                when typed.deliveries_with_this_key > 1
                    then 'conflicting duplicate: another row has this change_seq and change_oper'
            end,
            {%- endif %}
            {%- for name in layout.key_columns %}
            case
                when not typed.is_truncate and typed.{{ name }} is null
                    then {{ cdc_history.sql_string_literal('null key value in ' ~ name) }}
            end,
            {%- endfor %}
            nullif(typed.cast_errors, '')
        ), '') end as invalid_reason,
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
                                {{ cdc_history.sql_string_array(layout.key_columns) }}, name
                            )
                        )
                        then 'delete_mask_has_non_key_bits'
                end,
                case when typed.has_header_bits then 'mask_sets_header_bits' end
                {%- if latest_load %},
                case
                    when typed.deliveries_with_this_key > 1 and {{ kept }}
                        then 'latest_load_kept'
                end,
                {# whether kept or not: a later run's row supersedes the staged one
                   (qlik_ct_staged_rows), and the images are built again #}
                case when typed.conflicts_with_staged then 'supersedes_staged' end
                {%- endif %}
            ),
            flag -> flag is not null
        ) as flags
    from typed

),
{%- endmacro %}
