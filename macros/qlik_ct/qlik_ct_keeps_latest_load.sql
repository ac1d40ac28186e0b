{% macro qlik_ct_keeps_latest_load(table_name) %}
    {#- True when the Qlik table's cdc_tables entry sets duplicate_resolution: latest_load
        (docs/qlik-change-tables.md, "Duplicate resolution"): of two rows with one
        change_seq and change_oper and other content, the one landed last is kept and the
        other quarantined as superseded, instead of both quarantined (duplicate_resolution:
        quarantine, the default). -#}
    {{ return(cdc_history.cdc_table_config(table_name).get('duplicate_resolution', 'quarantine')
              == 'latest_load') }}
{% endmacro %}
