{% macro cdc_record_image_kinds() %}
    {#- post-hook of int_<table>__change_images, before cdc_write_finished: which kinds of
        image the table now holds (cdc_image_kind_flags), for the models and functions that
        merge its images into states (cdc_state_images leaves out the steps a table has no
        image for). One narrow query over the written table; the flags go to the memo
        `cdc_image_kinds` for the rest of this run (the relation cache holds the properties
        as the run found them) and to cdc_write_finished through
        cdc_remember_written_properties, which it adds to the table properties it sets
        (cdc.partial_images, cdc.key_moves, cdc.key_move_count: the number of K images,
        which bounds the longest chain of key moves the lineage steps must follow). -#}
    {%- if execute and model.resource_type == 'model' -%}
        {%- set row = run_query(
            'select'
            ~ ' coalesce(bool_or(not is_before_image and image_oper != \'T\''
            ~ ' and not image_complete), false) as partial_images,'
            ~ ' count_if(image_oper = \'K\') as key_move_count'
            ~ ' from ' ~ this).rows[0] -%}
        {%- set kinds = {'partial_images': row[0] | string | lower,
                         'key_moves': (row[1] | int > 0) | string | lower,
                         'key_move_count': row[1] | int | string} -%}
        {%- do graph.setdefault('cdc_image_kinds', {}).update({
            ((this.schema ~ '.' ~ this.identifier) | lower) ~ '@' ~ invocation_id: kinds}) -%}
        {%- do cdc_history.cdc_remember_written_properties({
            'cdc.partial_images': kinds.partial_images,
            'cdc.key_moves': kinds.key_moves,
            'cdc.key_move_count': kinds.key_move_count}) -%}
    {%- endif -%}
{% endmacro %}
