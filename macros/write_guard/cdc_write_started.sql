{% macro cdc_write_started(mark_column=none) %}
    {#- pre-hook of a model that writes into its existing table (an append, a partition
        overwrite): records in the table's properties that a write has begun, and, for an
        append, the newest `mark_column` value before it. If the process dies before
        cdc_write_finished, the next run sees it: cdc_repair_interrupted_writes (on-run-start)
        takes an append back to the mark, history_plan rebuilds a history. It also clears
        the record of the last write and of the inputs it read (cdc.written, cdc.inputs:
        see cdc_write_finished), so nothing downstream or in this model takes the table
        for unchanged while the write is open. A first build (no table yet) records
        nothing; a rebuild planned by cdc_append_plan records the empty mark without
        reading the table. -#}
    {%- if execute and model.resource_type == 'model' -%}
        {%- set existing = adapter.get_relation(this.database, this.schema, this.identifier) -%}
        {%- if existing is not none -%}
            {%- set properties = {'cdc.write': 'started', 'cdc.written': '', 'cdc.inputs': ''} -%}
            {%- if mark_column -%}
                {#- a rebuild planned by cdc_append_plan (cdc_append_reset empties the table
                    next) goes back to nothing, and its table may predate the mark column
                    (written by an earlier version of the model) -#}
                {%- set mark = '' -%}
                {%- if graph.get('cdc_append_plans', {}).get(model.unique_id) != 'rebuild' -%}
                    {%- set mark = run_query(
                        'select cast(max(' ~ mark_column ~ ') as string) from ' ~ this
                    ).columns[0].values()[0] -%}
                {%- endif -%}
                {%- do properties.update({'cdc.write.mark_column': mark_column,
                                          'cdc.write.mark': mark or ''}) -%}
            {%- endif -%}
            {%- do run_query(cdc_history.cdc_set_table_properties(this, properties)) -%}
        {%- endif -%}
    {%- endif -%}
{% endmacro %}
