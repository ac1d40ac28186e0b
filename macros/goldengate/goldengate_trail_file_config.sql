{% macro goldengate_trail_file_config() %}
    {#- The configuration the GoldenGate models written by trail file share
        (int_goldengate__trail_chunks_reassembled, __trail_records_sequenced,
        __changes_judged, __changes_logged): an incremental table partitioned by trail_seqno,
        written by insert overwrite of the partitions a run computes
        (goldengate_trail_files_to_write), under the write guard, its size recorded for
        its readers' joins (cdc_record_table_size). Models call
        config(enabled=..., **goldengate_trail_file_config()). -#}
    {{ return({
        'materialized': 'incremental',
        'incremental_strategy': 'insert_overwrite',
        'partition_by': ['trail_seqno'],
        'on_schema_change': 'fail',
        'pre_hook': [
            '{{ cdc_history.cdc_write_started() }}',
            "{{ cdc_history.cdc_partition_overwrite_mode('DYNAMIC') }}"
        ],
        'post_hook': [
            '{{ cdc_history.cdc_record_table_size() }}',
            '{{ cdc_history.cdc_write_finished() }}'
        ]
    }) }}
{% endmacro %}
