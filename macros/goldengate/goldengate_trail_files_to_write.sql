{% macro goldengate_trail_files_to_write(logical_records) %}
    {#- What this run rewrites of a GoldenGate trail model partitioned by trail file
        (int_goldengate__trail_chunks_reassembled, __trail_records_sequenced,
        __changes_judged; partition trail_seqno), as {'whole': true} to write it whole,
        else {'whole': false, 'from_file': F}: every trail file from F on is rewritten, the
        files before it are kept, and the partition of rows with no trail file (JSON
        messages, records without a trail_seqno) is rewritten every time (F none: no
        trail file). Whole on a first build, a full refresh, a unit test, when the last
        write never finished (cdc.write = started), and at parse time.

        Otherwise one query: the first trail file of a record staged after the newest
        loaded_at of this model's table (a record that lands late, in an earlier file,
        moves it back), then back from it to the nearest file that starts clean. A file
        starts clean when the last logical record before it (`logical_records`: the
        reassembled trail, whose chain_status, last_trans_ind and record_ids say so) is a
        complete chunk chain that closes its transaction (TransInd 2 or 3) and has no
        chunk in the file, or when no record comes before it. No transaction, chunk chain
        or update pair then crosses into the file from before, so nothing staged at or
        after it changes a row of an earlier file, and the steps from that file on give
        what a whole build gives them (the running counts take their carry from the
        files kept: transaction_number). A run that stages a trail's next records
        rewrites the files from the one its first record falls in, or the one that holds
        the start of a transaction still open there, not the whole trail. -#}
    {%- if not execute or model.resource_type != 'model' or not is_incremental()
          or cdc_history.cdc_table_property(this, 'cdc.write') == 'started' -%}
        {{ return({'whole': true, 'from_file': none}) }}
    {%- endif -%}
    {%- set found = run_query(
        'with new_records as ('
        ~ ' select min(staged.trail_seqno) as first_file'
        ~ ' from ' ~ ref('stg_goldengate__trail_records') ~ ' as staged'
        ~ ' where staged.loaded_at > (select coalesce(max(written.loaded_at),'
        ~ " timestamp '0001-01-01 00:00:00') from " ~ this ~ ' as written)'
        ~ '), file_ends as ('
        ~ ' select logical.trail_seqno, max_by(named_struct('
        ~ " 'clean', logical.chain_status = 'complete'"
        ~ ' and coalesce(logical.last_trans_ind in (2, 3), false),'
        ~ " 'record_ids', logical.record_ids), logical.trail_rba) as last_record"
        ~ ' from ' ~ logical_records ~ ' as logical'
        ~ ' where logical.trail_seqno <= (select first_file from new_records)'
        ~ ' group by logical.trail_seqno'
        ~ ')'
        ~ ' select new_records.first_file, file_ends.trail_seqno,'
        ~ ' file_ends.last_record.clean,'
        ~ ' aggregate(file_ends.last_record.record_ids, file_ends.trail_seqno,'
        ~ ' (end_file, record_id) -> greatest(end_file,'
        ~ " try_cast(trim(substring_index(record_id, '/', 1)) as bigint)))"
        ~ ' as end_file'
        ~ ' from new_records left join file_ends on true'
        ~ ' order by file_ends.trail_seqno'
    ) -%}
    {%- set first_new = found.rows[0][0] if found.rows else none -%}
    {%- if first_new is none -%}
        {#- no trail record staged since: only the rows without a trail file -#}
        {{ return({'whole': false, 'from_file': none}) }}
    {%- endif -%}
    {#- the files up to the first new one, in trail order: the last that starts clean -#}
    {%- set plan = namespace(start=none, previous=none) -%}
    {%- for row in found.rows if row[1] is not none -%}
        {%- if plan.previous is none
              or (plan.previous[2] and plan.previous[3] < row[1]) -%}
            {%- set plan.start = row[1] -%}
        {%- endif -%}
        {%- set plan.previous = row -%}
    {%- endfor -%}
    {%- if plan.previous is none or plan.previous[1] < first_new -%}
        {%- if plan.previous is none
              or (plan.previous[2] and plan.previous[3] < first_new) -%}
            {%- set plan.start = first_new -%}
        {%- endif -%}
    {%- endif -%}
    {{ return({'whole': false, 'from_file': plan.start | int}) }}
{% endmacro %}
