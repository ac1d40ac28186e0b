{{ config(enabled=cdc_source_system_enabled('qlik_ct')) }}
{#- One row per canonical change (spec F.1) from Qlik Replicate change tables:
    every valid I/U/D change with its before-image folded in, TRUNCATE rows as
    control changes, and the full-load (baseline) rows as snapshot inserts at
    order_key 000...0. #}
{%- set order_scope = 'qlik:' ~ var('qlik_ct_task') %}
{%- set snapshot_order_key = '0' * 35 %}

with

changes as (

    select * from {{ ref('int_qlik_ct__before_images_paired') }}

),

{% for table_name in cdc_tables_of('qlik_ct') -%}
{%- set key_columns = cdc_key_columns(table_name) -%}
{%- set data_columns = qlik_ct_layout(table_name).data_columns -%}
{{ table_name }}_snapshot as (

    select
        baseline.source_table,
        baseline.pk_string as raw_key,
        {{ sql_string_literal(snapshot_order_key) }} as order_key,
        cast(null as timestamp) as change_seq_at,
        'I' as change_oper,
        false as is_truncate,
        cast(null as string) as transaction_id,
        cast(null as string) as stream_position,
        cast(null as timestamp) as op_ts,
        cast(null as array<string>) as changed_columns,
        cast(array() as array<string>) as flags,
        cast(null as timestamp) as loaded_at,
        baseline.row_image,
        {{ sql_string_array(data_columns | map(attribute='name') | list) }}
            as present_columns,
        baseline.pk_string,
        {{ cdc_pk_map(key_columns, 'baseline.row_image') }} as pk,
        cast(null as map<string, string>) as before_image_row,  -- noqa: LT01
        cast(null as string) as before_image_pk_string,
        cast(null as map<string, string>) as before_image_pk,  -- noqa: LT01
        false as mask_sets_key_bits,
        true as is_snapshot
    from (
        select
            staged.source_table,
            {{ cdc_image_map(data_columns, 'staged') }} as row_image,
            {{ cdc_pk_string(key_columns, "cast(staged.{column} as string)") }}
                as pk_string
        from {{ ref('stg_qlik_ct__' ~ table_name ~ '_baseline') }} as staged
        where staged.is_valid
    ) as baseline

),

{% endfor -%}

all_rows as (

    select
        changes.*,
        false as is_snapshot
    from changes
    {% for table_name in cdc_tables_of('qlik_ct') -%}
    union all
    select * from {{ table_name }}_snapshot
    {% endfor %}

),

canonical as (

    select
        ---------- identity (spec F.1)
        sha2(
            concat_ws(
                '|',
                'qlik_ct',
                {{ sql_string_literal(order_scope) }},
                all_rows.order_key,
                case
                    when all_rows.is_snapshot
                        then concat_ws(
                            '|', all_rows.source_table, all_rows.pk_string
                        )
                    else '0'
                end
            ),
            256
        ) as change_id,
        'qlik_ct' as source_system,
        {{ sql_string_literal(var('qlik_ct_task')) }} as source_instance,
        case all_rows.source_table
            {%- for table_name in cdc_tables_of('qlik_ct') %}
            {%- set table = cdc_table_config(table_name) %}
            {%- set source_schema = table.get('source_schema', '') %}
            when {{ sql_string_literal(table_name) }}
                then {{ sql_string_literal(source_schema) }}
            {%- endfor %}
        end as source_schema,
        all_rows.source_table,
        lower(all_rows.source_table) as source_table_norm,

        ---------- operation
        case when not all_rows.is_truncate then all_rows.change_oper end as op,
        case when all_rows.is_truncate then 'TRUNCATE' end as control_op,
        all_rows.is_snapshot,
        case
            when all_rows.change_oper = 'U'
                then all_rows.before_image_row is not null
            else all_rows.change_oper = 'D'
        end as has_before_image,

        ---------- key (spec F.2)
        case when not all_rows.is_truncate then all_rows.pk end as pk,
        all_rows.pk_string,
        case
            when all_rows.before_image_pk_string != all_rows.pk_string
                then all_rows.before_image_pk
        end as pk_before,
        coalesce(
            all_rows.before_image_pk_string != all_rows.pk_string, false
        ) as pk_changed,

        ---------- ordering (spec F.3)
        {{ sql_string_literal(order_scope) }} as order_scope,
        all_rows.order_key,
        all_rows.transaction_id as txn_id,
        cast(null as bigint) as txn_seq,
        cast(null as boolean) as txn_last,
        cast(null as timestamp) as commit_ts,
        all_rows.op_ts,
        {# change_seq time part: monotone in a task, unlike header__timestamp #}
        all_rows.change_seq_at as effective_at,

        ---------- images
        case
            when all_rows.change_oper in ('I', 'U')
                then all_rows.changed_columns
        end as changed_columns,
        all_rows.present_columns,
        case
            when all_rows.change_oper = 'U' then all_rows.before_image_row
            when all_rows.change_oper = 'D' then all_rows.row_image
        end as before_image,
        case
            when all_rows.change_oper in ('I', 'U') then all_rows.row_image
        end as after_image,
        not all_rows.is_truncate as image_complete,
        false as needs_lookup,
        case
            when
                all_rows.change_oper = 'U'
                and all_rows.before_image_row is null
                and all_rows.mask_sets_key_bits
                then array_union(
                    all_rows.flags, array('key_update_without_before_image')
                )
            else all_rows.flags
        end as flags,

        ---------- lineage
        concat(
            {{ sql_string_literal(var('qlik_ct_schema') ~ '.') }},
            all_rows.source_table,
            case when all_rows.is_snapshot then '' else '__ct' end
        ) as raw_source,
        all_rows.raw_key,
        all_rows.loaded_at

    from all_rows

)

select
    {{- cdc_select_columns(cdc_canonical_columns(), 'canonical') }}
from canonical
