{% macro qlik_ct_tables_to_log() %}
    {#- The Qlik tables whose partition of int_qlik_ct__changes_logged this run writes:
        every configured qlik_ct table at parse time (so the model depends on every
        pairing view), on a first build, a full refresh, a unit test, or when the last
        write never finished (cdc.write = started); otherwise the tables with no partition
        yet or whose staging holds a row loaded after the newest change of their
        partition (one query over the staging tables and the log). -#}
    {%- set tables = cdc_tables_of('qlik_ct') | list -%}
    {%- if not execute or model.resource_type != 'model' or not is_incremental()
          or cdc_table_property(this, 'cdc.write') == 'started' -%}
        {{ return(tables) }}
    {%- endif -%}
    {%- set staged = [] -%}
    {%- for table_name in tables -%}
        {%- do staged.append(
            'select ' ~ sql_string_literal(table_name) ~ ' as source_table,'
            ~ ' max(loaded_at) as loaded_at from ' ~ ref('stg_qlik_ct__' ~ table_name)) -%}
    {%- endfor -%}
    {%- set found = run_query(
        'select staged.source_table'
        ~ ' from (' ~ staged | join(' union all ') ~ ') as staged'
        ~ ' left join (select source_table, max(loaded_at) as loaded_at from ' ~ this
        ~ ' group by source_table) as logged'
        ~ ' on logged.source_table = staged.source_table'
        ~ ' where logged.source_table is null'
        ~ " or staged.loaded_at > coalesce(logged.loaded_at, timestamp '0001-01-01 00:00:00')"
        ~ ' order by staged.source_table') -%}
    {{ return(found.columns[0].values() | list) }}
{% endmacro %}
