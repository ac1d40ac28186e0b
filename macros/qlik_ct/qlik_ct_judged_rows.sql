{% macro qlik_ct_judged_rows(layout) %}
    {#- The CTE `judged` of stage_qlik_change_table: every spec A.12 rule that makes a row
        invalid becomes a '; '-joined invalid_reason (NULL when valid); warnings that do not
        block a row become flags. -#}
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
                    then {{ sql_string_literal('null key value in ' ~ name) }}
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
{%- endmacro %}
