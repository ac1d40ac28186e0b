{% macro full_snapshot_changes(table_name, since=none) %}
    {#- A query of the changes one full_snapshot table's consecutive snapshots imply
        (docs/full-snapshots.md): per key, in snapshot order, a row first present (or
        present again after being absent) is an insert (I), a row whose values differ from
        the last known ones (compared as text, NULL-safe) an update (U), and a key of the
        previous snapshot that a snapshot lacks a delete (D). A key whose rows in a snapshot
        are invalid (quarantined) is unknown there: its last known state carries over. The
        snapshots are those int_full_snapshot__snapshots lists, in time order, so a late one
        is placed where it belongs. With `since` (an increment of
        int_full_snapshot__changes_canonical) only the snapshots staged after it are
        compared, against the newest snapshot staged before it and each key's last logged
        change ({{ this }}); else every snapshot. Columns: order_key, snapshot_at,
        snapshot_text, pk_string, op, before_values, after_values, landed_file,
        is_first_snapshot, loaded_at (the snapshot's staging time). -#}
    {%- set staged_relation = ref('stg_full_snapshot__' ~ table_name) -%}
    {%- set snapshots_relation = ref('int_full_snapshot__snapshots') -%}
    {#- the newest snapshot an earlier write compared: a literal, so the scan of the
        staged rows skips the files and row groups of older snapshots (Parquet min/max of
        order_key); '' for a full build -#}
    {%- set applied = '' -%}
    {%- if since and execute -%}
        {%- set applied = run_query(
            'select coalesce(max(order_key), \'\') from ' ~ snapshots_relation
            ~ ' where source_table = ' ~ cdc_history.sql_string_literal(table_name)
            ~ ' and loaded_at <= timestamp ' ~ cdc_history.sql_string_literal(since)
        ).columns[0].values()[0] -%}
    {%- endif -%}
    {%- set after_applied = cdc_history.sql_string_literal(applied) %}
with

snapshots as (

    select listed.*
    from {{ snapshots_relation }} as listed
    where listed.source_table = {{ cdc_history.sql_string_literal(table_name) }}

),

compared_snapshots as (

    select snapshots.*
    from snapshots
    where snapshots.order_key >= {{ after_applied }}

),

following as (

    {# each snapshot's successor: a key it holds that the successor lacks ends there #}
    select
        compared_snapshots.order_key,
        min(successors.order_key) as next_order_key
    from compared_snapshots
    left join compared_snapshots as successors
        on successors.order_key > compared_snapshots.order_key
    group by 1

),

observed as (

    {# one row per key and snapshot: present (one valid row) or unknown (invalid rows) #}
    select
        staged.order_key,
        staged.pk_string,
        case
            when count(*) = 1 and bool_and(staged.is_valid) then 'present'
            else 'unknown'
        end as kind,
        first(staged.row_values) as row_values,
        first(staged.landed_file) as landed_file
    from {{ staged_relation }} as staged
    where
        staged.is_in_snapshot
        and staged.is_key_known
        and staged.order_key >= {{ after_applied }}
    group by 1, 2

),

sequenced as (

    select
        observed.*,
        lead(observed.order_key) over (
            partition by observed.pk_string order by observed.order_key
        ) as next_seen
    from observed

),

absences as (

    {# a key seen in a snapshot and not in the one after it is absent from that one #}
    select
        following.next_order_key as order_key,
        sequenced.pk_string,
        'absent' as kind,
        cast(null as map<string, string>) as row_values,  -- noqa: LT01
        cast(null as string) as landed_file
    from sequenced
    inner join following
        on sequenced.order_key = following.order_key
    where
        following.next_order_key is not null
        and (
            sequenced.next_seen is null
            or sequenced.next_seen > following.next_order_key
        )

),

events as (

    select
        sequenced.order_key,
        sequenced.pk_string,
        sequenced.kind,
        sequenced.row_values,
        sequenced.landed_file
    from sequenced

    union all

    select * from absences
    {%- if since %}

    union all

    {# each compared key's state before: its last logged change #}
    select
        '' as order_key,
        logged.pk_string,
        logged.state.kind,
        logged.state.row_values,
        cast(null as string) as landed_file
    from (
        select
            this_table.pk_string,
            max_by(
                named_struct(
                    'kind', case when this_table.op = 'D' then 'absent' else 'present' end,
                    'row_values', this_table.after_image
                ),
                this_table.order_key
            ) as state
        from {{ this }} as this_table
        where this_table.source_table = {{ cdc_history.sql_string_literal(table_name) }}
        group by 1
    ) as logged
    left semi join observed
        on logged.pk_string = observed.pk_string
    {%- endif %}

),

stated as (

    select
        events.*,
        last(
            case
                when events.kind != 'unknown'
                    then named_struct('kind', events.kind, 'row_values', events.row_values)
            end,
            true
        ) over (
            partition by events.pk_string
            order by events.order_key
            rows between unbounded preceding and 1 preceding
        ) as known_before
    from events

),

changed as (

    select
        stated.order_key,
        stated.pk_string,
        case
            when
                stated.kind = 'present'
                and coalesce(stated.known_before.kind, 'absent') = 'absent'
                then 'I'
            when
                stated.kind = 'present'
                and to_json(stated.known_before.row_values) != to_json(stated.row_values)
                then 'U'
            when stated.kind = 'absent' and stated.known_before.kind = 'present'
                then 'D'
        end as op,
        stated.known_before.row_values as before_values,
        stated.row_values as after_values,
        stated.landed_file
    from stated
    where
        stated.kind != 'unknown'
        and stated.order_key > {{ after_applied }}

)

select
    changed.order_key,
    snapshots.snapshot_at,
    snapshots.snapshot_text,
    changed.pk_string,
    changed.op,
    case when changed.op in ('U', 'D') then changed.before_values end as before_values,
    case when changed.op in ('I', 'U') then changed.after_values end as after_values,
    changed.landed_file,
    changed.order_key = (
        select min(first_listed.order_key)
        from snapshots as first_listed
    ) as is_first_snapshot,
    snapshots.loaded_at
from changed
inner join snapshots
    on changed.order_key = snapshots.order_key
where changed.op is not null
{%- endmacro %}
