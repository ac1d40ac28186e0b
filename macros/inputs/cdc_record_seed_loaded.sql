{% macro cdc_record_seed_loaded() %}
    {#- The seeds' post-hook (dbt_project.yml): the statement that records in the seed's
        table which content was loaded (property cdc.written: an MD5 of the seed file's
        checksum and the seed's config, its column types and quoting among them, so the
        same on every load of the same file with the same settings, and a build that
        reloads unchanged seeds leaves the models over them with nothing new), remembered
        for the rest of the run (cdc_remember_written). cdc_seed_loaded reads it back. -#}
    {%- if not execute or model.resource_type != 'seed' -%}
        {{ return('') }}
    {%- endif -%}
    {%- set loaded = local_md5(model.checksum.checksum ~ '\n' ~ tojson(model.config, sort_keys=true)) -%}
    {%- do cdc_history.cdc_remember_written(this, loaded) -%}
    {{ return(cdc_history.cdc_set_table_properties(this, {'cdc.written': loaded})) }}
{% endmacro %}
