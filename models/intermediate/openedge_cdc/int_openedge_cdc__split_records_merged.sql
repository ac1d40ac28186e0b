{{ config(enabled=cdc_source_system_enabled('openedge_cdc')) }}
{#- One row per (table, _Change-Sequence, _Operation) change record: a record
    split in two (larger than 32 K, spec D.7) merged back into one before
    anything else. Our reading of the unconfirmed merge rule: the first record
    has _Continuation-Position 0, the continuation p > 0; fields 1 to p (in
    the configured column order) come from the first, the fields after p + 1
    from the continuation, and field p + 1 from the continuation, or, when
    _Fragment is 1, the first's text then the continuation's, or, when
    _ArrayIndex is k > 0, the first's elements (1 to k - 1) then the
    continuation's joined by ';'. Both records of a split carry _Fragment and
    _ArrayIndex. A record whose partner has not arrived, or a pair that cannot
    be merged, gets a hold_reason and is never applied half. #}
{%- set tables = cdc_tables_of('openedge_cdc') %}

with

{% for table_name in tables -%}
{{ table_name }}_records as (

    select
        staged.*,
        {{ sql_string_array(
            openedge_cdc_table_settings(table_name).columns
            | map(attribute='name') | list) }} as column_names,
        {%- set text_columns = [] %}
        {%- for column in openedge_cdc_table_settings(table_name).columns
              if column.type == 'string' %}
        {%- do text_columns.append(column.name) %}
        {%- endfor %}
        {{ sql_string_array(text_columns) }} as text_columns
    from {{ ref('stg_openedge_cdc__' ~ table_name) }} as staged
    where staged.is_valid

),

{% endfor -%}

records as (

    {% for table_name in tables -%}
    select * from {{ table_name }}_records
    {% if not loop.last %}union all{% endif %}
    {% endfor %}

),

first_records as (

    select * from records
    where continuation_position = 0

),

continuations as (

    select
        records.source_table,
        records.change_sequence,
        records.operation,
        count(*) as continuation_count,
        min_by(
            struct(
                records.continuation_position,
                records.array_index,
                records.fragment,
                records.tran_id,
                records.op_ts,
                records.row_values
            ),
            records.continuation_position
        ) as continuation
    from records
    where records.continuation_position > 0
    group by 1, 2, 3

),

joined as (

    select
        coalesce(first_records.source_table, continuations.source_table)
            as source_table,
        coalesce(
            first_records.change_sequence, continuations.change_sequence
        ) as change_sequence,
        coalesce(first_records.operation, continuations.operation)
            as operation,  -- noqa: RF04
        first_records.source_table is not null as has_first_record,
        coalesce(continuations.continuation_count, 0) as continuation_count,
        first_records.array_index as first_array_index,
        first_records.fragment as first_fragment,
        first_records.tran_id as first_tran_id,
        first_records.op_ts as first_op_ts,
        first_records.row_values as first_values,
        first_records.landed_columns,
        first_records.column_names,
        first_records.text_columns,
        continuations.continuation
    from first_records
    full outer join continuations
        on
            first_records.source_table = continuations.source_table
            and first_records.change_sequence
            = continuations.change_sequence
            and first_records.operation = continuations.operation

),

judged as (

    select
        joined.*,
        joined.column_names[joined.continuation.continuation_position]
            as split_column,
        case
            when joined.continuation_count > 1
                then 'cannot merge: more than one continuation record'
            when not joined.has_first_record
                then concat(
                    'held: a continuation record (_Continuation-Position ',
                    joined.continuation.continuation_position,
                    ') whose first record has not arrived'
                )
            when
                joined.continuation_count = 0
                and (joined.first_fragment = 1 or joined.first_array_index > 0)
                then concat(
                    'held: the first record of a split (_Fragment ',
                    joined.first_fragment, ', _ArrayIndex ',
                    joined.first_array_index,
                    ') whose continuation has not arrived'
                )
            when joined.continuation_count = 0 then null
            when
                joined.continuation.fragment != joined.first_fragment
                or joined.continuation.array_index != joined.first_array_index
                then
                    'cannot merge: the two records disagree on _Fragment '
                    || 'or _ArrayIndex'
            when
                joined.continuation.tran_id != joined.first_tran_id
                or joined.continuation.op_ts != joined.first_op_ts
                then
                    'cannot merge: the two records disagree on _Tran-Id '
                    || 'or _Time-Stamp'
            when
                joined.continuation.continuation_position
                >= size(joined.column_names)
                then concat(
                    'cannot merge: _Continuation-Position ',
                    joined.continuation.continuation_position,
                    ' leaves no field for the continuation (the table has ',
                    size(joined.column_names), ')'
                )
            when
                joined.continuation.fragment = 1
                and joined.continuation.array_index > 0
                then 'cannot merge: both _Fragment and _ArrayIndex are set'
            when
                (
                    joined.continuation.fragment = 1
                    or joined.continuation.array_index > 0
                )
                and not array_contains(
                    joined.text_columns,
                    joined.column_names[
                        joined.continuation.continuation_position
                    ]
                )
                then concat(
                    'cannot merge: the split field ',
                    joined.column_names[
                        joined.continuation.continuation_position
                    ],
                    ' is not text'
                )
        end as hold_reason
    from joined

),

merged as (

    select
        judged.source_table,
        judged.change_sequence,
        lpad(cast(judged.change_sequence as string), 20, '0') as order_key,
        judged.operation,
        coalesce(judged.first_tran_id, judged.continuation.tran_id)
            as tran_id,
        coalesce(judged.first_op_ts, judged.continuation.op_ts) as op_ts,
        judged.continuation_count > 0 as is_split,
        case
            when judged.continuation_count = 0 then judged.first_values
            else map_from_arrays(
                judged.column_names,
                transform(
                    judged.column_names,
                    (name, position) -> case
                        when
                            position
                            < judged.continuation.continuation_position
                            then judged.first_values[name]
                        when
                            position
                            > judged.continuation.continuation_position
                            then judged.continuation.row_values[name]
                        when
                            judged.continuation.fragment = 1
                            and coalesce(
                                judged.first_values[name],
                                judged.continuation.row_values[name]
                            ) is not null
                            then concat(
                                coalesce(judged.first_values[name], ''),
                                coalesce(
                                    judged.continuation.row_values[name], ''
                                )
                            )
                        when judged.continuation.array_index > 0
                            then concat_ws(
                                ';',
                                judged.first_values[name],
                                judged.continuation.row_values[name]
                            )
                        else judged.continuation.row_values[name]
                    end
                )
            )
        end as row_values,
        judged.landed_columns,
        judged.hold_reason,
        judged.hold_reason is null as is_ready
    from judged

)

select * from merged
