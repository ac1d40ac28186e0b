{% macro cdc_seed_loaded(seed) %}
    {#- Which seed file (and seed config) the seed's table was last loaded from: the
        cdc.written property its load recorded (cdc_record_seed_loaded, the seeds' post-hook;
        this run's loads from the memo), none when the table has no record. Not the file's
        checksum now: an edited file is not in the table until the next `dbt seed` or
        `dbt build`, and a model that reads the table must run again when the table
        changes, not when the file does. -#}
    {{ return(cdc_history.cdc_written_id(api.Relation.create(
        database=seed.database, schema=seed.schema, identifier=seed.alias))) }}
{% endmacro %}
