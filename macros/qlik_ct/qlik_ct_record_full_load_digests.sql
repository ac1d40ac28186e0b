{% macro qlik_ct_record_full_load_digests() %}
    {#- post-hook of int_qlik_ct__changes_logged: records, per Qlik table whose full load
        this write logged (qlik_ct_full_load_plan: baseline or reload), what the log now
        reflects, read by the plan of a later run: table properties
        cdc.full_load.<table> (the folder's digest), cdc.full_load_newest.<table> (its
        newest file's modification time) and cdc.full_load_at.<table> (the reload's time,
        empty for the baseline). A folder with no readable file, or one the log already
        reflects, records nothing (the last full load's record stays); nothing is recorded
        when the digest cannot be told (qlik_ct_full_load_digest). -#}
    {%- if execute and model.resource_type == 'model' -%}
        {%- set properties = {} -%}
        {%- set plan = cdc_history.qlik_ct_full_load_plan() -%}
        {%- for table_name in cdc_history.cdc_tables_of('qlik_ct') -%}
            {%- set digest = cdc_history.qlik_ct_full_load_digest(table_name) -%}
            {%- set landed = cdc_history.cdc_landed_files_listing('qlik_ct').get(table_name, {}) -%}
            {%- if digest is not none and landed.get('newest_readable') is not none
                  and plan[table_name].action in ['baseline', 'reload'] -%}
                {%- do properties.update({
                    'cdc.full_load.' ~ table_name: digest,
                    'cdc.full_load_newest.' ~ table_name: landed.newest,
                    'cdc.full_load_at.' ~ table_name: plan[table_name].get('at') or ''}) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if properties -%}
            {%- do run_query(cdc_history.cdc_set_table_properties(this, properties)) -%}
        {%- endif -%}
    {%- endif -%}
{% endmacro %}
