{% macro stage_qlik_change_table(table_name) %}
    {#- The whole body of stg_qlik_ct__<table>: one row per delivered change-table row,
        typed, ordered, its mask decoded, and judged (invalid_reason, flags). Calls a Python
        UDF, so it is a table; incremental (append). Disabled when the table is not a
        qlik_ct table of var cdc_tables. The steps, each a macro:
          qlik_ct_delivered_rows  the landed rows not staged yet, exact duplicate
                                  deliveries collapsed (files: only unstaged files read,
                                  qlik_ct_unstaged_files_filter; none: the run is
                                  skipped, cdc_nothing_new);
          qlik_ct_decoded_rows    mask decoded (UDF), change_seq split, row typed;
          qlik_ct_judged_rows     every spec A.12 rule as a reason, warnings as flags. -#}
    {%- if table_name not in cdc_history.cdc_tables_of('qlik_ct') -%}
        {{ config(enabled=false) }}
    {%- else -%}
    {{- config(
        pre_hook=["{{ cdc_history.cdc_write_started('loaded_at') }}"],
        post_hook=["{{ cdc_history.cdc_write_finished() }}"],
        meta={'cdc_landed_inputs': {
            'source_system': 'qlik_ct', 'tables': [table_name ~ '__ct']}}
    ) -}}
    {%- set layout = cdc_history.qlik_ct_layout(table_name) -%}
    {#- files mode, incremental: the landed folder as it was when the last write read it
        (cdc_inputs_unchanged), or no readable file left unstaged, means nothing to stage -#}
    {%- set unchanged = cdc_history.cdc_var('qlik_ct_landing') == 'files' and cdc_history.cdc_inputs_unchanged() -%}
    {%- set files_filter = 'false' if unchanged
        else cdc_history.qlik_ct_unstaged_files_filter(table_name, 'landed') -%}
    {%- if unchanged or is_incremental() and execute and cdc_history.cdc_var('qlik_ct_landing') == 'files'
          and run_query(
            'select 1 from ' ~ source('qlik_ct', table_name ~ '__ct') ~ ' as landed where '
            ~ files_filter ~ ' limit 1').rows | length == 0 -%}
{{ cdc_history.cdc_nothing_new() }}
    {%- else -%}
{{ cdc_history.depends_on_landing_seed(table_name ~ '__ct', 'qlik_ct') }}

with

{{ cdc_history.qlik_ct_delivered_rows(table_name, layout, files_filter) }}

{{ cdc_history.qlik_ct_decoded_rows(table_name, layout) }}

{{ cdc_history.qlik_ct_judged_rows(
    layout,
    cdc_history.cdc_table_config(table_name).get('lob_columns', []) | map('lower') | list,
    cdc_history.qlik_ct_keeps_latest_load(table_name)
) }}

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
        judged.malformed_record,
        judged.flags,
        judged.landed_file,
        judged.landed_file_modified_at,
        current_timestamp() as loaded_at
    from judged

)

select * from final
    {%- endif -%}
    {%- endif -%}
{% endmacro %}
