{% macro goldengate_io_types() %}
    {#- The trail IOType codes this project knows (spec E.2: Oracle's documented list and
        the codes observed in open-systems trails), code -> [name, kind]. kind is I, U or D
        (a row change), a control_op (TRUNCATE, DDL, METADATA), or transaction (a NonStop
        TMF transaction-control record, which changes no table). Any other code is
        quarantined for review (spec E.6); 116, 117, 134 and 161 are unconfirmed (spec F.7
        item 21) and stay out until a trail shows them. -#}
    {{ return({
        1: ['Abort', 'transaction'],
        2: ['Commit', 'transaction'],
        3: ['Delete', 'D'],
        4: ['EndRollback', 'transaction'],
        5: ['Insert', 'I'],
        6: ['Prepared', 'transaction'],
        7: ['TMF-Shutdown', 'transaction'],
        8: ['TransBegin', 'transaction'],
        9: ['TransRelease', 'transaction'],
        10: ['Update', 'U'],
        11: ['UpdateComp', 'U'],
        12: ['FileAlter', 'DDL'],
        13: ['FileCreate', 'DDL'],
        14: ['FilePurge', 'TRUNCATE'],
        15: ['FieldComp', 'U'],
        16: ['FileRename', 'DDL'],
        17: ['AuxPointer', 'transaction'],
        18: ['NetworkCommit', 'transaction'],
        19: ['NetworkAbort', 'transaction'],
        90: ['GGSSQLCol', 'DDL'],
        100: ['GGSPurgedata', 'TRUNCATE'],
        101: ['GGSPurgeFile', 'TRUNCATE'],
        102: ['GGSCreateFile', 'DDL'],
        103: ['GGSAlterFile', 'DDL'],
        115: ['GGSPKUpdate', 'U'],
        135: ['GGSUnifiedPKUpdate', 'U'],
        160: ['DDLOP', 'DDL'],
        170: ['Metadata', 'METADATA']
    }) }}
{% endmacro %}
