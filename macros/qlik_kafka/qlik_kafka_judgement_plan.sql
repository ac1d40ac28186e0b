{% macro qlik_kafka_judgement_plan(decoded) %}
    {#- How this run of int_qlik_kafka__message_copies_judged writes: cdc_append_plan's
        answer for `decoded` (int_qlik_kafka__messages_decoded, its valid messages, marked
        by staged_at), with one more condition for an append, since a judgement is not
        made of one message alone. Appending judges only the valid messages staged after
        the table's newest (`since`) and leaves every earlier judgement as it is, which
        is what judging every message again would write when each new message either
        - is a copy of a CDC change judged before at that change's place (the same
          table, operation, changeSequence and message time): it sorts beside its
          change, so it takes its change's REFRESH batch and moves no other message's, or
        - comes after every message judged before of its table in message order (message
          time, changeSequence, partition, offset: a transaction's changes share their
          time; a table not judged before included): the steps in message order go on
          from the table's last message, batch and first change time;
        and besides
        - no message judged before was decoded again since (a late metadata version
          decodes earlier messages anew: their loaded_at is after `since`, their
          staged_at not), and the table holds exactly one judgement per valid message
          staged up to `since` (a staging built anew stages every message again);
        - a table whose judged messages hold no CDC message gets none after them (its
          first change time, on every row of it, would change).
        Otherwise the plan becomes a rebuild (recorded for cdc_append_reset, logged with
        the reason), and every message is judged again. One query over the judged
        table's and the decoded messages' order columns (the judged changes read only
        for the new messages' changes). -#}
    {%- set plan = cdc_history.cdc_append_plan(decoded, 'upstream.is_valid', 'staged_at') -%}
    {%- if plan.since and plan.newer != 0 -%}
        {%- set since = 'timestamp ' ~ cdc_history.sql_string_literal(plan.since) -%}
        {#- a message's place in message order, as the model's windows sort (NULL first) -#}
        {%- set order = "named_struct('message_at', message_at, 'change_seq', change_seq,"
            ~ " 'kafka_partition', kafka_partition, 'kafka_offset', kafka_offset)" -%}
        {%- set found = run_query(
            'with judged as (select source_table, operation, change_identity, message_at,'
            ~ ' first_change_at, ' ~ order ~ ' as place from ' ~ this ~ '),'
            ~ ' tables_before as (select source_table, max(place) as newest,'
            ~ ' count(first_change_at) > 0 as has_changes from judged group by 1),'
            ~ ' decoded as (select source_table, operation, change_seq, staged_at, loaded_at,'
            ~ ' message_at, ' ~ order ~ ' as place from (select *,'
            ~ ' coalesce(change_seq_at, kafka_timestamp) as message_at'
            ~ ' from ' ~ decoded ~ ' where is_valid)),'
            ~ ' new_changes as (select distinct source_table,'
            ~ ' concat(operation, \'|\', change_seq) as change_identity from decoded'
            ~ ' where staged_at > ' ~ since ~ ' and operation != \'REFRESH\'),'
            ~ ' changes_before as (select /*+ broadcast(new_changes) */ distinct'
            ~ ' judged.source_table, judged.change_identity, judged.message_at from judged'
            ~ ' left semi join new_changes on judged.source_table <=> new_changes.source_table'
            ~ ' and judged.change_identity = new_changes.change_identity'
            ~ ' where judged.operation != \'REFRESH\'),'
            ~ ' new as (select decoded.*, changes_before.source_table is not null as is_copy,'
            ~ ' tables_before.source_table is null as is_new_table,'
            ~ ' coalesce(decoded.place > tables_before.newest, false) as is_after,'
            ~ ' coalesce(tables_before.has_changes, false) as has_changes'
            ~ ' from decoded left join tables_before'
            ~ ' on decoded.source_table <=> tables_before.source_table'
            ~ ' left join changes_before on '
            ~ cdc_history.qlik_kafka_copy_of_judged_change('decoded', 'changes_before')
            ~ ' where decoded.staged_at > ' ~ since ~ ')'
            ~ ' select'
            ~ ' (select count_if(not is_copy and not is_new_table and not is_after) from new),'
            ~ ' (select count_if(not is_copy and not is_new_table and not has_changes'
            ~ ' and operation != \'REFRESH\') from new),'
            ~ ' (select count_if(staged_at <= ' ~ since ~ ' and loaded_at > ' ~ since ~ ') from decoded),'
            ~ ' (select count_if(staged_at <= ' ~ since ~ ') from decoded),'
            ~ ' (select count(*) from judged)'
        ).rows[0] -%}
        {%- set why = none -%}
        {%- if found[2] > 0 -%}
            {%- set why = found[2] ~ ' messages judged before were decoded again' -%}
        {%- elif found[3] != found[4] -%}
            {%- set why = 'it holds ' ~ found[4] ~ ' judgements of the ' ~ found[3]
                ~ ' valid messages staged up to its newest' -%}
        {%- elif found[0] > 0 -%}
            {%- set why = found[0] ~ ' new messages are not after every judged message of their table'
                ~ ' (nor copies of a judged change at its place)' -%}
        {%- elif found[1] > 0 -%}
            {%- set why = found[1] ~ ' new CDC messages follow the judged messages of a table that had none' -%}
        {%- endif -%}
        {%- if why -%}
            {%- do graph['cdc_append_plans'].update({model.unique_id: 'rebuild'}) -%}
            {%- do log('cdc: ' ~ this ~ ': rebuilt: ' ~ why, info=true) -%}
            {{ return({'since': none, 'newer': none, 'why': why}) }}
        {%- endif -%}
    {%- endif -%}
    {{ return(plan) }}
{% endmacro %}
