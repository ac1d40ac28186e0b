{% macro cdc_partition_overwrite_mode(mode) %}
    {#- Pre-hook of a model that writes with insert overwrite into partitions: the statement
        that makes its table replace, on this write, only the partitions the insert writes
        ('DYNAMIC', an increment) or every partition ('STATIC', a rebuild in one statement),
        as the table's own option (storage property partitionOverwriteMode, which Spark
        reads before the session's spark.sql.sources.partitionOverwriteMode). A table
        setting, not a session one: models that run side by side, and profile settings that
        dbt-spark re-applies before every statement, cannot change it. No statement when the
        table holds that mode already (as the relation cache listed it at the start of the
        run: only this hook changes it) or does not exist yet (its first build writes it
        whole). -#}
    {%- set statement = namespace(sql='') -%}
    {%- if execute and model.resource_type == 'model'
          and adapter.get_relation(this.database, this.schema, this.identifier) is not none
          and ('partitionOverwriteMode=' ~ mode) not in
              (cdc_history.cdc_relation_details(this).get('Storage Properties') or '') -%}
        {%- set statement.sql = 'alter table ' ~ this ~ ' set serdeproperties ('
            ~ cdc_history.sql_string_literal('partitionOverwriteMode') ~ ' = ' ~ cdc_history.sql_string_literal(mode) ~ ')' -%}
    {%- endif -%}
    {{ statement.sql }}
{% endmacro %}
