{% macro qlik_ct_full_load_plan() %}
    {#- What this write of int_qlik_ct__changes_logged does with each Qlik table's landed
        full load, as {table: {'action': ..., 'at': ...}} (`at` only for a reload):
          baseline  the folder's rows are the baseline, snapshot inserts at order key
                    000...0 (its bucket written): at parse time, on a first build, a full
                    refresh or a unit test; when the landing is not in files mode (the full
                    load cannot be told apart, so it is rewritten with its table); when no
                    full load with rows was recorded yet (a full load landed after the first
                    build: it is still the image before the first change); and when files
                    were only added to the baseline's folder (its later parts);
          reload    the folder changed since the log recorded a full load with rows
                    (table property cdc.full_load.<table>), a file of it changed or gone: a
                    reload, applied as a snapshot at `at`, the newest modification time of
                    its readable files (a TRUNCATE then its rows, qlik_ct_reload_rows); the
                    baseline stays as logged. Files only added to a reload's folder are its
                    later parts: the reload is logged again at its own `at`;
          kept      nothing to write: the folder is what the log recorded, or has no
                    readable file (files cleared away end nothing; an unreadable file is
                    in the landing problems, not a reload).
        "Only added": the folder's files modified at or before the newest file the log
        recorded (cdc.full_load_newest.<table>) have the recorded digest. What was logged is
        recorded by qlik_ct_record_full_load_digests, so a reload is applied once, and a
        rerun after a write that never finished applies it again whole. -#}
    {%- set plan = {} -%}
    {%- set incremental = execute and model.resource_type == 'model' and is_incremental() -%}
    {%- for table_name in cdc_history.cdc_tables_of('qlik_ct') -%}
        {%- set digest = cdc_history.qlik_ct_full_load_digest(table_name) if incremental else none -%}
        {%- set landed = {} if digest is none
            else cdc_history.cdc_landed_files_listing('qlik_ct').get(table_name, {}) -%}
        {%- set recorded = cdc_history.cdc_table_property(this, 'cdc.full_load.' ~ table_name)
            if digest is not none else none -%}
        {%- if not incremental or digest is none -%}
            {%- do plan.update({table_name: {'action': 'baseline'}}) -%}
        {%- elif landed.get('newest_readable') is none or digest == recorded -%}
            {%- do plan.update({table_name: {'action': 'kept'}}) -%}
        {%- elif recorded in [none, '', 'no file'] -%}
            {%- do plan.update({table_name: {'action': 'baseline'}}) -%}
        {%- else -%}
            {%- set recorded_newest = cdc_history.cdc_table_property(
                this, 'cdc.full_load_newest.' ~ table_name) -%}
            {%- set recorded_at = cdc_history.cdc_table_property(this, 'cdc.full_load_at.' ~ table_name) -%}
            {%- set earlier = [] -%}
            {%- for file in landed.files if recorded_newest
                  and file.modified_at <= recorded_newest -%}
                {%- do earlier.append(file.fact) -%}
            {%- endfor -%}
            {%- if earlier and local_md5(earlier | sort | join('\n\x00\n')) == recorded -%}
                {#- files added beside the logged ones: later parts of the load in force -#}
                {%- do plan.update({table_name: {'action': 'reload', 'at': recorded_at}
                    if recorded_at else {'action': 'baseline'}}) -%}
            {%- else -%}
                {%- do plan.update({table_name: {
                    'action': 'reload', 'at': landed.newest_readable}}) -%}
            {%- endif -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(plan) }}
{% endmacro %}
