{% macro cdc_repair_interrupted_writes() %}
    {#- on-run-start: every appending model whose last write began and never finished (the
        process died: cdc_write_started without cdc_write_finished) is taken back to where it
        stood before that write, so the run that follows sees no half-appended batch (a
        staging model would take its landed files for staged; an image table would take its
        watermark for complete). In two crash-safe steps: the rows up to the recorded mark
        are copied to <table>__cdc_repair and the table marked 'repairing'; then the table
        is overwritten from the copy, marked finished, and the copy dropped. A run that dies
        in between repeats the step it was in. Histories (partition overwrite) are not
        repaired here: history_plan rebuilds one whose write never finished. -#}
    {%- if execute -%}
        {%- for node in graph.nodes.values()
              if node.resource_type == 'model' and node.config.enabled
              and node.config.materialized == 'incremental'
              and node.config.get('incremental_strategy') == 'append' -%}
            {%- set relation = api.Relation.create(
                database=node.database, schema=node.schema, identifier=node.alias) -%}
            {%- set state = cdc_history.cdc_table_property(relation, 'cdc.write') -%}
            {%- if state in ['started', 'repairing'] -%}
                {%- set copy = api.Relation.create(
                    database=node.database, schema=node.schema,
                    identifier=node.alias ~ '__cdc_repair') -%}
                {%- if state == 'started' -%}
                    {%- set column = cdc_history.cdc_identifier(
                        cdc_history.cdc_table_property(relation, 'cdc.write.mark_column'),
                        'property cdc.write.mark_column of ' ~ relation) -%}
                    {%- set mark = cdc_history.cdc_table_property(relation, 'cdc.write.mark') or '' -%}
                    {%- do log('cdc: ' ~ relation ~ ': the last write never finished; taking it '
                               ~ 'back to ' ~ column ~ ' <= ' ~ (mark or 'nothing'), info=true) -%}
                    {%- do run_query('drop table if exists ' ~ copy) -%}
                    {%- do run_query(
                        'create table ' ~ copy ~ ' using parquet as select * from ' ~ relation
                        ~ ' where '
                        ~ (column ~ ' <= timestamp ' ~ cdc_history.sql_string_literal(mark) if mark else 'false')) -%}
                    {%- do run_query(cdc_history.cdc_set_table_properties(relation, {'cdc.write': 'repairing'})) -%}
                {%- endif -%}
                {%- do run_query('insert overwrite table ' ~ relation ~ ' select * from ' ~ copy) -%}
                {%- do run_query(cdc_history.cdc_set_table_properties(relation, {
                    'cdc.write': 'finished', 'cdc.written': 'repaired ' ~ invocation_id,
                    'cdc.inputs': ''})) -%}
                {%- do run_query('drop table if exists ' ~ copy) -%}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
{% endmacro %}
