{% macro goldengate_trail_fields() %}
    {#- The fields of a landed decoded trail record, [landed name, staged name]: the trail
        position, the header fields of seed 004 as Logdump names them, the table name, the
        images and the GGS tokens (JSON text). Every field is read as text and cast on
        staging, so Parquet, JSON Lines and CSV landings stage alike. -#}
    {{ return([
        ['trail_seqno', 'trail_seqno_text'],
        ['trail_rba', 'trail_rba_text'],
        ['Hdr-Ind', 'hdr_ind_text'],
        ['UndoFlag', 'undo_flag_text'],
        ['RecLength', 'rec_length_text'],
        ['IOType', 'io_type_text'],
        ['TransInd', 'trans_ind_text'],
        ['SyskeyLen', 'syskey_len_text'],
        ['AuditRBA', 'audit_rba_text'],
        ['Continued', 'continued_text'],
        ['Partition', 'partition_text'],
        ['BeforeAfter', 'before_after_text'],
        ['IOTime', 'io_time_text'],
        ['OrigNode', 'orig_node_text'],
        ['FormatType', 'format_type_text'],
        ['Incomplete', 'incomplete_text'],
        ['AuditPos', 'audit_pos_text'],
        ['RecCount', 'rec_count_text'],
        ['table_name', 'table_name'],
        ['before_image', 'before_image_json'],
        ['after_image', 'after_image_json'],
        ['tokens', 'tokens_json']
    ]) }}
{% endmacro %}
