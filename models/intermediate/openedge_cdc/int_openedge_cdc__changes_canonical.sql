{{
    config(
        enabled=cdc_source_system_enabled('openedge_cdc'),
        materialized='incremental',
        incremental_strategy='append',
        on_schema_change='fail',
        pre_hook=["{{ cdc_write_started('loaded_at') }}"],
        post_hook=["{{ cdc_write_finished() }}"]
    )
}}
{#- One row per canonical change (spec F.1, F.4) from OpenEdge CDC: each ready
    change of int_openedge_cdc__changes_paired (1 -> I, 4 -> U with its
    level-3 before image, 2 -> D; 5, 12 -> SCHEMA_FIELD_DROP / _ADD; 6 to 11
    -> PARTITION_*), plus one D per row a partition operation removed
    (int_openedge_cdc__partition_rows_removed) and one U per row a field delete
    cleared (int_openedge_cdc__dropped_fields_cleared). Level 0/1 changes carry
    only the _Recid key and need a lookup. effective_at is _Time-Stamp made monotone
    within the table (the running maximum in _Change-Sequence order, spec
    D.8/D.10; cdc_running_max), so a point in time by timestamp works across
    tables.
    Append-only (incremental by change_id): a held change enters once all its
    parts have arrived; consumers may purge the landed rows afterwards. #}
{%- set tables = {} %}
{%- for table_name in cdc_tables_of('openedge_cdc') %}
{%- do tables.update({table_name: openedge_cdc_table_settings(table_name)}) %}
{%- endfor %}
{%- set schema = cdc_var('openedge_cdc_schema') %}
{#- the partition and field-delete steps only when such an operation is ready #}
{%- set control = openedge_cdc_control_operations_ready() %}

with

paired as (

    select * from {{ ref('int_openedge_cdc__changes_paired') }}
    where is_ready

),

{%- if control.partition %}

removed as (

    select * from {{ ref('int_openedge_cdc__partition_rows_removed') }}

),
{%- endif %}
{%- if control.field_delete %}

cleared as (

    select * from {{ ref('int_openedge_cdc__dropped_fields_cleared') }}

),
{%- endif %}

timed as (

    {# the running maximum of op_ts per table, taken per 100,000 changes of the
       table and carried across them (no task holds a whole table) #}
    {{ cdc_running_max(
        'paired', 'scoped.op_ts', ['source_table'],
        'scoped.change_sequence div 100000', 'change_sequence', 'effective_at'
    ) | indent(4) }}

),

row_changes as (

    select
        timed.source_table,
        timed.order_key,
        '0' as sub_seq,
        case timed.operation
            when 1 then 'I'
            when 4 then 'U'
            when 2 then 'D'
        end as op,
        case
            when timed.operation = 5 then 'SCHEMA_FIELD_DROP'
            when timed.operation = 12 then 'SCHEMA_FIELD_ADD'
            when timed.operation in (6, 10, 11) then 'PARTITION_DROP'
            when timed.operation = 7 then 'PARTITION_TRUNCATE'
            when timed.operation in (8, 9) then 'PARTITION_DEALLOCATE'
        end as control_op,
        timed.has_before_image,
        timed.pk,
        timed.pk_string,
        timed.pk_before,
        timed.tran_id,
        timed.op_ts,
        timed.effective_at,
        case
            when timed.operation = 4
                then coalesce(
                    timed.changed_columns,
                    case
                        when timed.before_values is not null
                            then filter(
                                map_keys(timed.after_values),
                                name -> not (
                                    timed.after_values[name]
                                    <=> timed.before_values[name]
                                )
                            )
                    end
                )
            when timed.operation in (5, 12) then timed.changed_columns
        end as changed_columns,
        case
            when timed.operation in (1, 2, 4) then timed.present_columns
        end as present_columns,
        case
            when timed.operation = 2 and timed.policy_level < 2 then timed.pk
            else timed.before_values
        end as before_image,
        case
            when timed.operation in (1, 4) and timed.policy_level < 2
                then timed.pk
            else timed.after_values
        end as after_image,
        coalesce(
            timed.operation in (1, 2, 4)
            and timed.policy_level >= 2
            and size(timed.present_columns) = case timed.source_table
                {%- for table_name, table in tables.items() %}
                when {{ sql_string_literal(table_name) }}
                    then {{ table.columns | length }}
                {%- endfor %}
            end,
            false
        ) as image_complete,
        timed.operation in (1, 4) and timed.policy_level < 2 as needs_lookup,
        concat(
            timed.flags,
            filter(
                array(
                    case
                        when timed.operation not in (1, 2, 4)
                            then concat('oe_operation:', timed.operation)
                    end,
                    case
                        when timed.operation between 6 and 11
                            then concat('partition_id:', timed.partition_id)
                    end,
                    case
                        when timed.operation in (9, 10)
                            then concat('tenant_id:', timed.tenant_id)
                    end
                ),
                flag -> flag is not null
            )
        ) as flags,
        concat_ws(
            ';',
            concat('_Change-Sequence=', timed.change_sequence),
            concat('_Operation=', timed.operation),
            concat('_Recid=', timed.recid)
        ) as raw_key
    from timed

),

{%- if control.partition %}

removals as (

    select
        removed.source_table,
        removed.order_key,
        removed.pk_string as sub_seq,
        'D' as op,
        cast(null as string) as control_op,
        false as has_before_image,
        removed.pk,
        removed.pk_string,
        cast(null as map<string, string>) as pk_before,  -- noqa: LT01
        removed.tran_id,
        removed.op_ts,
        timed.effective_at,
        cast(null as array<string>) as changed_columns,
        map_keys(removed.pk) as present_columns,
        removed.pk as before_image,
        cast(null as map<string, string>) as after_image,  -- noqa: LT01
        false as image_complete,
        false as needs_lookup,
        array(
            concat('removed_by_partition_operation:', removed.operation),
            concat('partition_id:', removed.partition_id)
        ) as flags,
        concat(
            '_Change-Sequence=', removed.change_sequence,
            ';_Operation=', removed.operation,
            ';removed=', removed.pk_string
        ) as raw_key
    from removed
    inner join timed
        on
            removed.source_table = timed.source_table
            and removed.change_sequence = timed.change_sequence

),
{%- endif %}
{%- if control.field_delete %}

clears as (

    select
        cleared.source_table,
        cleared.order_key,
        cleared.pk_string as sub_seq,
        'U' as op,
        cast(null as string) as control_op,
        false as has_before_image,
        cleared.pk,
        cleared.pk_string,
        cast(null as map<string, string>) as pk_before,  -- noqa: LT01
        cleared.tran_id,
        cleared.op_ts,
        timed.effective_at,
        array(cleared.field_name) as changed_columns,
        cleared.present_columns,
        cleared.before_values as before_image,
        cleared.after_values as after_image,
        size(cleared.present_columns) = case cleared.source_table
            {%- for table_name, table in tables.items() %}
            when {{ sql_string_literal(table_name) }}
                then {{ table.columns | length }}
            {%- endfor %}
        end as image_complete,
        false as needs_lookup,
        array(concat('cleared_by_field_delete:', cleared.field_name))
            as flags,
        concat(
            '_Change-Sequence=', cleared.change_sequence,
            ';_Operation=5;cleared=', cleared.pk_string
        ) as raw_key
    from cleared
    inner join timed
        on
            cleared.source_table = timed.source_table
            and cleared.change_sequence = timed.change_sequence

),
{%- endif %}

unioned as (

    select * from row_changes
    {%- if control.partition %}
    union all
    select * from removals
    {%- endif %}
    {%- if control.field_delete %}
    union all
    select * from clears
    {%- endif %}

),

scopes as (
    {%- for table_name, table in tables.items() %}
    select
        {{ sql_string_literal(table_name) }} as source_table,
        {{ sql_string_literal(
            'oe:' ~ cdc_var('openedge_cdc_database') ~ ':'
            ~ table.table_number) }} as order_scope,
        {{ sql_string_literal(
            cdc_table_config(table_name).get('source_schema', '')) }}
            as source_schema,
        {{ sql_string_literal(
            schema ~ '.' ~ cdc_var('openedge_cdc_tracking_table')
            ~ (' + ' ~ schema ~ '.' ~ table.change_table
               if table.has_values else '')) }} as raw_source
    {% if not loop.last %}union all{% endif %}
    {%- endfor %}

),

canonical as (

    select
        ---------- identity (spec F.1)
        sha2(
            concat_ws(
                '|', 'openedge_cdc', scoped.order_scope,
                unioned.order_key, unioned.sub_seq
            ),
            256
        ) as change_id,
        'openedge_cdc' as source_system,
        {{ sql_string_literal(cdc_var('openedge_cdc_database')) }}
            as source_instance,
        scoped.source_schema,
        unioned.source_table,
        lower(unioned.source_table) as source_table_norm,

        ---------- operation (spec F.4)
        unioned.op,
        unioned.control_op,
        false as is_snapshot,
        unioned.has_before_image,

        ---------- key (identifying fields; level 0/1: _Recid)
        unioned.pk,
        unioned.pk_string,
        unioned.pk_before,
        unioned.pk_before is not null as pk_changed,

        ---------- ordering (spec F.3, D.8)
        scoped.order_scope,
        unioned.order_key,
        cast(unioned.tran_id as string) as txn_id,
        cast(null as bigint) as txn_seq,
        cast(null as boolean) as txn_last,
        cast(null as timestamp) as commit_ts,
        unioned.op_ts,
        unioned.effective_at,

        ---------- images
        unioned.changed_columns,
        unioned.present_columns,
        unioned.before_image,
        unioned.after_image,
        unioned.image_complete,
        unioned.needs_lookup,
        unioned.flags,

        ---------- lineage
        scoped.raw_source,
        unioned.raw_key,
        current_timestamp() as loaded_at
    from unioned
    inner join scopes as scoped
        on unioned.source_table = scoped.source_table

),

new_changes as (

    {{ cdc_changes_not_logged('canonical') }}

)

select
    {{- cdc_select_columns(cdc_canonical_columns(), 'new_changes') }}
from new_changes
