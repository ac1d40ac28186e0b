{% macro qlik_ct_log_buckets_to_write(full_load_plan) %}
    {#- What this run writes of int_qlik_ct__changes_logged, as {table: buckets}: `none`
        for a table written whole, else the list of its buckets (qlik_ct_log_bucket) to
        rewrite. Every configured qlik_ct table whole at parse time (so the model depends
        on every table's staging), on a first build, a full refresh, a unit test, or when the
        last write never finished (cdc.write = started). Otherwise one query over the
        staging tables' rows loaded after each table's mark (a literal bound, by which
        Parquet skips older runs' files): a table with no row in the log yet is written
        whole; a table whose staging holds rows loaded after its mark gets the buckets of
        those rows (a before-image landed after its update included: it
        shares the update's bucket). The full-load bucket (zeros) is added when
        `full_load_plan` (qlik_ct_full_load_plan) takes the table's folder as its baseline,
        also for a table with nothing newly staged; a table with a reload to log is
        written too (the reload's own bucket is the log model's). Tables with nothing new
        are left out.
        A table's mark is the newest load time of the staged rows the last write read
        (table property cdc.logged_through.<table>, recorded when the write finishes:
        cdc_remember_written_properties; a write of the log whole reads every staged row);
        when a table has none (nothing staged then, or a log written by an earlier
        version), the newest load time the log holds of each table, read from the log. -#}
    {%- set tables = cdc_history.cdc_tables_of('qlik_ct') | list -%}
    {%- set full_load_bucket = '0' * (cdc_history.cdc_var('history_bucket_length', 8) | int) -%}
    {%- set whole = {} -%}
    {%- for table_name in tables -%}
        {%- do whole.update({table_name: none}) -%}
    {%- endfor -%}
    {%- set marks = {} -%}
    {%- if not execute or model.resource_type != 'model' or not is_incremental()
          or cdc_history.cdc_table_property(this, 'cdc.write') == 'started' -%}
        {#- written whole, from every staged row: each table's mark is its newest one
            (none, so '', for a table with nothing staged) -#}
        {%- if execute and model.resource_type == 'model' -%}
            {%- set newest = [] -%}
            {%- for table_name in tables -%}
                {%- do marks.update({'cdc.logged_through.' ~ table_name: ''}) -%}
                {#- a staging not built yet (`dbt compile` on a new schema) has no rows -#}
                {%- set staging = load_relation(ref('stg_qlik_ct__' ~ table_name)) -%}
                {%- if staging is not none -%}
                    {%- do newest.append(
                        'select ' ~ cdc_history.sql_string_literal(table_name) ~ ' as source_table,'
                        ~ ' unix_micros(max(loaded_at)) as newest from ' ~ staging) -%}
                {%- endif -%}
            {%- endfor -%}
            {%- for row in (run_query(newest | join(' union all ')).rows if newest else [])
                  if row[1] is not none -%}
                {%- do marks.update({'cdc.logged_through.' ~ row[0]: row[1] | int | string}) -%}
            {%- endfor -%}
            {%- do cdc_history.cdc_remember_written_properties(marks) -%}
        {%- endif -%}
        {{ return(whole) }}
    {%- endif -%}
    {#- each table's mark, then the staged rows loaded after it, each table bounded by
        a literal time so Parquet skips the files of older runs by their statistics (a
        join with the log's times would read every staged row) -#}
    {%- set logged = {} -%}
    {%- for table_name in tables -%}
        {%- set mark = cdc_history.cdc_table_property(this, 'cdc.logged_through.' ~ table_name) -%}
        {%- if mark is not none and mark | length > 0 -%}
            {%- do logged.update({table_name: mark | int}) -%}
        {%- endif -%}
    {%- endfor -%}
    {%- if logged | length < tables | length -%}
        {#- a table without a recorded mark (nothing staged at the last write, or a log
            written by an earlier version): what the log holds of every table -#}
        {%- do logged.clear() -%}
        {%- for row in run_query(
              'select source_table, unix_micros(max(loaded_at)) from ' ~ this
              ~ ' group by source_table').rows -%}
            {%- do logged.update({row[0]: row[1]}) -%}
            {%- if row[1] is not none -%}
                {%- do marks.update({'cdc.logged_through.' ~ row[0]: row[1] | int | string}) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {%- set staged = [] -%}
    {%- for table_name in tables -%}
        {%- if table_name not in logged -%}
            {%- set newer = 'true' -%}
        {%- elif logged[table_name] is none -%}
            {#- only full-load rows logged: they carry no load time -#}
            {%- set newer = "loaded_at > timestamp '0001-01-01 00:00:00'" -%}
        {%- else -%}
            {%- set newer = 'loaded_at > timestamp_micros('
                ~ (logged[table_name] | int) ~ ')' -%}
        {%- endif -%}
        {%- do staged.append(
            'select ' ~ cdc_history.sql_string_literal(table_name) ~ ' as source_table, '
            ~ ('false' if table_name in logged else 'true') ~ ' as whole, order_key, loaded_at'
            ~ ' from ' ~ ref('stg_qlik_ct__' ~ table_name) ~ ' where ' ~ newer) -%}
    {%- endfor -%}
    {%- set found = run_query(
        'select staged.source_table, staged.whole,'
        ~ " concat_ws(',', array_sort(collect_set("
        ~ cdc_history.qlik_ct_log_bucket('staged.order_key') ~ '))) as buckets,'
        ~ ' unix_micros(max(staged.loaded_at)) as newest'
        ~ ' from (' ~ staged | join(' union all ') ~ ') as staged'
        ~ ' group by staged.source_table, staged.whole'
        ~ ' order by staged.source_table') -%}
    {#- every staged row of these tables up to `newest` is read by this write: the next
        run reads only the rows staged after it -#}
    {%- for row in found.rows if row[3] is not none -%}
        {%- do marks.update({'cdc.logged_through.' ~ row[0]: row[3] | int | string}) -%}
    {%- endfor -%}
    {%- do cdc_history.cdc_remember_written_properties(marks) -%}
    {%- set full_load_changed = {} -%}
    {%- for table_name in tables -%}
        {%- do full_load_changed.update({
            table_name: full_load_plan[table_name].action == 'baseline'}) -%}
    {%- endfor -%}
    {%- set to_write = {} -%}
    {%- for row in found.rows -%}
        {%- if row[1] -%}
            {%- do to_write.update({row[0]: none}) -%}
        {%- else -%}
            {%- do to_write.update({
                row[0]: ([full_load_bucket] if full_load_changed[row[0]] else [])
                    + (row[2].split(',') | reject('equalto', '')
                    | reject('equalto', full_load_bucket) | list)}) -%}
        {%- endif -%}
    {%- endfor -%}
    {#- a full load landed (or reloaded) with no change-table row staged; in files mode
        only: otherwise the full load is written with its table's changes -#}
    {%- for table_name in tables
          if table_name not in to_write
          and cdc_history.qlik_ct_full_load_digest(table_name) is not none -%}
        {%- if full_load_plan[table_name].action == 'baseline' -%}
            {%- do to_write.update({table_name: [full_load_bucket]}) -%}
        {%- elif full_load_plan[table_name].action == 'reload' -%}
            {%- do to_write.update({table_name: []}) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(to_write) }}
{% endmacro %}
