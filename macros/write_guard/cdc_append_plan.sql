{% macro cdc_append_plan(
    upstream, condition='true', mark_column='loaded_at', invalidated_by=none, invalidating='true'
) %}
    {#- How this run of an append model that derives each row from one row of `upstream`
        alone writes: {'since': <text>, 'newer': N, 'why': ...} to append only the N rows
        of `upstream` (those matching `condition`, SQL over the alias `upstream`) loaded
        after `since`, the newest `mark_column` of this model's table (none at all when N
        is 0); {'since': none, 'why': <reason>} to rebuild it from every row. A rebuild
        when there is no table, --full-refresh or a unit test (as for any incremental
        model); when the table's last write never finished; when the project's code is
        not the code that wrote it (cdc.code, recorded by cdc_write_finished: the
        environment variable CDC_CODE_FINGERPRINT that cdc-dbt sets; plain dbt sets none,
        so it always rebuilds, as a table would); when the table is empty; or when
        `invalidated_by` (a relation with a loaded_at whose rows change how rows loaded
        earlier are derived: the Qlik Kafka metadata versions; only its rows matching
        `invalidating`, SQL over its columns: the late full snapshots) has a row loaded after the
        newest one the table's last write saw (cdc.invalidated_seen, recorded by
        cdc_write_finished from this plan; a table written before it was recorded compares
        with `since` instead). Asked also when nothing new was staged: metadata landing
        alone decodes again what came before it, and the next run's new rows are then
        appended. The decision is recorded in the invocation's memo for the model's
        pre-hook (cdc_append_reset), which empties the table before a rebuild, and the
        newest `invalidated_by` row seen in the memo `cdc_append_seen` for the post-hook. -#}
    {%- set plan = {'since': none, 'newer': none, 'why': 'a first or full build'} -%}
    {#- the newest invalidating row, when a query below has read it already -#}
    {%- set newest = {} -%}
    {%- if execute and model.resource_type == 'model' and is_incremental() -%}
        {%- set code = env_var('CDC_CODE_FINGERPRINT', '') -%}
        {%- if cdc_history.cdc_table_property(this, 'cdc.write') != 'finished' -%}
            {%- do plan.update({'why': 'its last write never finished'}) -%}
        {%- elif not code -%}
            {%- do plan.update({'why': 'no code fingerprint (CDC_CODE_FINGERPRINT: run by cdc-dbt)'}) -%}
        {%- elif cdc_history.cdc_table_property(this, 'cdc.code') != code -%}
            {%- do plan.update({'why': 'the code changed since its last write'}) -%}
        {%- elif cdc_history.cdc_inputs_unchanged() -%}
            {%- do plan.update({'since': 'inputs unchanged', 'newer': 0, 'why': 'nothing new'}) -%}
        {%- else -%}
            {%- set watermark = cdc_history.cdc_watermark(upstream, condition, mark_column) -%}
            {%- if watermark.since is none -%}
                {%- do plan.update({'why': 'its table is empty'}) -%}
            {%- else -%}
                {%- set invalidating_rows = 0 -%}
                {#- asked even when nothing new was staged: metadata landing alone
                    must decode again what was staged before it -#}
                {%- if invalidated_by is not none -%}
                    {%- set seen = cdc_history.cdc_table_property(this, 'cdc.invalidated_seen') -%}
                    {%- set counted = run_query(
                        'select count_if((' ~ invalidating ~ ') and loaded_at > timestamp '
                        ~ cdc_history.sql_string_literal(seen or watermark.since)
                        ~ '), cast(max(loaded_at) as string) from ' ~ invalidated_by).rows[0] -%}
                    {%- set invalidating_rows = counted[0] -%}
                    {%- do newest.update({'loaded_at': counted[1]}) -%}
                {%- endif -%}
                {%- if invalidating_rows > 0 -%}
                    {%- do plan.update({'why': invalidating_rows ~ ' rows of ' ~ invalidated_by
                                        ~ ' loaded since its last write'}) -%}
                {%- else -%}
                    {%- do plan.update({'since': watermark.since, 'newer': watermark.newer,
                                        'why': watermark.newer ~ ' new rows'}) -%}
                {%- endif -%}
            {%- endif -%}
        {%- endif -%}
    {%- endif -%}
    {%- if execute and model.resource_type == 'model' -%}
        {%- do graph.setdefault('cdc_append_plans', {}).update(
            {model.unique_id: 'append' if plan.since else 'rebuild'}) -%}
        {#- the newest invalidating row this write decodes with (the relation is built
            before this model), for cdc_write_finished to record; not when nothing is
            written (inputs unchanged), which keeps the recorded one, nor when the relation
            does not exist yet (a compile before the first build) -#}
        {%- if invalidated_by is not none and plan.newer != 0 and 'loaded_at' not in newest
              and load_relation(invalidated_by) is not none -%}
            {%- do newest.update({'loaded_at': run_query(
                'select cast(max(loaded_at) as string) from ' ~ invalidated_by
            ).columns[0].values()[0]}) -%}
        {%- endif -%}
        {%- if 'loaded_at' in newest and plan.newer != 0 -%}
            {%- do graph.setdefault('cdc_append_seen', {}).update(
                {model.unique_id ~ '@' ~ invocation_id: newest.loaded_at or ''}) -%}
        {%- endif -%}
        {%- if is_incremental() and not plan.since -%}
            {%- do log('cdc: ' ~ this ~ ': rebuilt: ' ~ plan.why, info=true) -%}
        {%- endif -%}
    {%- endif -%}
    {{ return(plan) }}
{% endmacro %}
