{% macro cdc_write_later_batches() %}
    {#- post-hook (before cdc_write_finished) of a model that writes its tables in batches:
        writes each select cdc_remember_later_batches left for this write, one statement a
        batch, after the model's own statement wrote the first. A partitioned table gets an
        insert overwrite of the partitions the batch writes (its partitionOverwriteMode
        DYNAMIC, set here too: a first build or a full refresh has just created the table
        without it), any other table an insert. Before the first batch an incremental
        model's table is marked as being written (cdc.write = started, as
        cdc_write_started does for an existing table), so a write that stops between
        batches is written whole by the next run; a table model records its fingerprint
        only once all its statements ran (macros/materializations/table.sql), so it is
        built again.
        The columns are the table's, in its order (a partitioned table keeps its partition
        columns last). Nothing when there is no later batch. -#}
    {%- if execute and model.resource_type == 'model' -%}
        {%- set selects = graph.get('cdc_later_batches', {}).get(
            model.unique_id ~ '@' ~ invocation_id, []) -%}
        {%- if selects | length > 0 -%}
            {%- set partition_by = config.get('partition_by') or [] -%}
            {%- set partition_by = [partition_by] if partition_by is string else partition_by -%}
            {%- if config.get('materialized') == 'incremental' -%}
                {%- do run_query(cdc_history.cdc_set_table_properties(
                    this, {'cdc.write': 'started', 'cdc.written': '', 'cdc.inputs': ''})) -%}
            {%- endif -%}
            {%- if partition_by | length > 0 -%}
                {%- do run_query('alter table ' ~ this ~ ' set serdeproperties ('
                    ~ cdc_history.sql_string_literal('partitionOverwriteMode') ~ ' = '
                    ~ cdc_history.sql_string_literal('DYNAMIC') ~ ')') -%}
            {%- endif -%}
            {%- set columns = [] -%}
            {%- for column in adapter.get_columns_in_relation(this) -%}
                {%- do columns.append(adapter.quote(column.name)) -%}
            {%- endfor -%}
            {%- for select in selects -%}
                {%- set statement -%}
                    {%- if partition_by | length > 0 %}
insert overwrite table {{ this }} partition ({{ partition_by | join(', ') }})
                    {%- else %}
insert into {{ this }}
                    {%- endif %}
select {{ columns | join(', ') }}
from (
{{ select }}
) as later_batch
                {%- endset -%}
                {%- do run_query(statement) -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endif -%}
{% endmacro %}
