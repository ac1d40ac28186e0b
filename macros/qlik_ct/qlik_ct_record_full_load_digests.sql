{% macro qlik_ct_record_full_load_digests() %}
    {#- post-hook of int_qlik_ct__changes_logged: records, per Qlik table, the digest of the
        full-load folder its full-load bucket now reflects (table property
        cdc.full_load.<table>, read by qlik_ct_log_buckets_to_write), so a later run
        rewrites that bucket only when the folder changed. Nothing is recorded when the
        digest cannot be told (qlik_ct_full_load_digest). -#}
    {%- if execute and model.resource_type == 'model' -%}
        {%- set digests = {} -%}
        {%- for table_name in cdc_tables_of('qlik_ct') -%}
            {%- set digest = qlik_ct_full_load_digest(table_name) -%}
            {%- if digest is not none -%}
                {%- do digests.update({'cdc.full_load.' ~ table_name: digest}) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- if digests -%}
            {%- do run_query(cdc_set_table_properties(this, digests)) -%}
        {%- endif -%}
    {%- endif -%}
    select 1 as full_load_digests_recorded
{% endmacro %}
