{% macro qlik_ct_log_rows(to_write, full_load_plan) %}
    {#- The rows int_qlik_ct__changes_logged writes for the tables of `to_write`
        ({table: buckets}, qlik_ct_log_buckets_to_write; one statement's batch of them,
        cdc_table_batches), in the log's columns: each table's pairing as a CTE of its own
        (qlik_ct_changes_paired), limited to the buckets to rewrite, its reload when
        `full_load_plan` (qlik_ct_full_load_plan) has one (qlik_ct_reload_rows), in the
        canonical columns with the change_id (spec F.1) and the log_bucket partition. -#}
{%- set order_scope = 'qlik:' ~ cdc_history.cdc_var('qlik_ct_task') -%}
with
{# one CTE a table written: its changes paired (qlik_ct_changes_paired); a table
   name is an identifier (cdc_is_table_name) #}
{%- for table_name in to_write %}

{{ table_name }}__paired as (

    {{ cdc_history.qlik_ct_changes_paired(table_name) | indent(4) }}

),
{%- endfor %}

all_rows as (

    {% for table_name, buckets in to_write.items() -%}
    {%- set full_load = full_load_plan[table_name] -%}
    select * from {{ table_name }}__paired
    {%- if buckets is none and full_load.action != 'baseline' %}
    {# written whole, but the logged full load stays: it is what the folder holds,
       or a reload replaced it there #}
    where not is_snapshot
    {%- elif buckets is not none and buckets | length == 0 %}
    where false
    {%- elif buckets is not none %}
    where {{ cdc_history.qlik_ct_log_bucket('order_key') }} in (
        {%- for bucket in buckets -%}
        {{ cdc_history.sql_string_literal(bucket) }}{{ ', ' if not loop.last }}
        {%- endfor -%}
    )
    {#- the same rows as a range, which Parquet can skip older runs' files by (the
        bucket list cannot be pushed to a scan): a logged order key is 35 digits or
        the full load's zeros, so each key of these buckets lies from the least
        bucket up to the greatest followed by '~', above every digit #}
    and order_key >= {{ cdc_history.sql_string_literal(buckets | min) }}
    and order_key < {{ cdc_history.sql_string_literal((buckets | max) ~ '~') }}
    {%- endif %}
    {%- if full_load.action == 'reload' %}
    union all
    {{ cdc_history.qlik_ct_reload_rows(table_name, full_load.at, table_name ~ '__paired') }}
    {%- endif %}
    {% if not loop.last %}union all{% endif %}
    {% endfor %}

),

canonical as (

    select
        ---------- identity (spec F.1)
        sha2(
            concat_ws(
                '|',
                'qlik_ct',
                {{ cdc_history.sql_string_literal(order_scope) }},
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
        {{ cdc_history.sql_string_literal(cdc_history.cdc_var('qlik_ct_task')) }} as source_instance,
        case all_rows.source_table
            {%- for table_name in cdc_history.cdc_tables_of('qlik_ct') %}
            {%- set table = cdc_history.cdc_table_config(table_name) %}
            {%- set source_schema = table.get('source_schema', '') %}
            when {{ cdc_history.sql_string_literal(table_name) }}
                then {{ cdc_history.sql_string_literal(source_schema) }}
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
        {{ cdc_history.sql_string_literal(order_scope) }} as order_scope,
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
            {{ cdc_history.sql_string_literal(cdc_history.cdc_var('qlik_ct_schema') ~ '.') }},
            all_rows.source_table,
            case when all_rows.is_snapshot then '' else '__ct' end
        ) as raw_source,
        all_rows.raw_key,
        all_rows.loaded_at,

        ---------- partition (qlik_ct_log_bucket; a reload has its own, which
        ---------- no write rewrites from the landing: the folder moved on)
        case
            when array_contains(all_rows.flags, 'reload')
                then concat('reload-', substr(all_rows.order_key, 1, 16))
            else {{ cdc_history.qlik_ct_log_bucket('all_rows.order_key') }}
        end as log_bucket

    from all_rows

)

select * from canonical
{%- endmacro %}
