{% macro cdc_image_kind_flags(table_name) %}
    {#- Which kinds of image int_<table>__change_images holds, as {'partial_images': bool,
        'key_moves': bool, 'key_move_count': int or none}: an image (not a before-image,
        not a TRUNCATE) lacking columns (image_complete false), and a key move's K image,
        with the number of K images (none where it cannot be told). cdc_state_images leaves
        out the step a kind needs when the table holds none (and guards against one
        appearing), and follows chains of key moves no longer than the count allows.

        From this run's memo when the images were written in this run
        (cdc_record_image_kinds), else from the table's properties as the run found them
        (cdc.partial_images, cdc.key_moves, cdc.key_move_count, set by the images' last
        completed write). Both true and no count, so every step stays in, when it cannot
        be told: while parsing, in a unit test or a node that is not a model, and for a
        table without the properties (not built yet, or last written by code older than
        them). -#}
    {%- set every_kind = {'partial_images': true, 'key_moves': true, 'key_move_count': none} -%}
    {%- if not execute or model is not mapping or model.get('resource_type') != 'model' -%}
        {{ return(every_kind) }}
    {%- endif -%}
    {%- set relation = ref('int_' ~ table_name ~ '__change_images') -%}
    {%- set key = (relation.schema ~ '.' ~ relation.identifier) | lower -%}
    {%- set memo = graph.get('cdc_image_kinds', {}).get(key ~ '@' ~ invocation_id) -%}
    {%- if memo is none and cdc_history.cdc_written_id(relation) == invocation_id -%}
        {#- written in this run without the memo (a model of this project always records
            it): nothing to trust -#}
        {{ return(every_kind) }}
    {%- endif -%}
    {%- if memo is none -%}
        {%- set memo = {
            'partial_images': cdc_history.cdc_table_property(relation, 'cdc.partial_images'),
            'key_moves': cdc_history.cdc_table_property(relation, 'cdc.key_moves'),
            'key_move_count': cdc_history.cdc_table_property(relation, 'cdc.key_move_count')} -%}
    {%- endif -%}
    {%- set count = memo.get('key_move_count') -%}
    {{ return({
        'partial_images': memo.partial_images != 'false',
        'key_moves': memo.key_moves != 'false',
        'key_move_count': count | int if count is not none and (count | string).isdigit()
            else none}) }}
{% endmacro %}
