{% macro cdc_log_image_kinds(changes) %}
    {#- The images one canonical change (a row of the log aliased `changes`) unfolds into,
        in seed 000's before-image layout: the one definition that fct_cdc_change_images
        (text maps) and cdc_change_images_of_log (typed) both unfold by. A list of dicts of
        SQL expressions: `when` the change has this image, its pk_string, image_oper,
        is_before_image, row_exists, the text map `image` it shows, image_complete and
        present_columns.
          I, U  the row after the change;
          D     the deleted row (the change's before-image);
          K     a U that changed the key ends the old key, with the before-image;
          T     a TRUNCATE: no key, no values, every key of the table stops existing;
          B     the before-image of a U, at the same order_key (is_before_image), for the
                seed's left outer join; its key is the old key when the U moved it.
        present_columns is the change's for I, U and D; the before-image's own keys for K
        and B (the log's present_columns describes a U's after-image); NULL for T.
        image_complete likewise: the change's for I, U and D; for K and B, true only when
        the change is complete and its before-image holds as many columns as its after-image
        (a level-2 OpenEdge update that moved the key has no before-image at all: its K
        image then carries nothing, and the old key's tombstone shows the state it ends,
        not every column NULL). -#}
    {%- set before_complete = '(' ~ changes ~ '.image_complete and coalesce(size('
        ~ changes ~ '.before_image) = size(' ~ changes ~ '.after_image), false))' -%}
    {%- set old_pk_string = cdc_history.cdc_pk_string_of_map(changes ~ '.pk_before') -%}
    {{ return([
        {
            'when': changes ~ ".op in ('I', 'U')",
            'pk_string': changes ~ '.pk_string',
            'image_oper': changes ~ '.op',
            'is_before_image': 'false',
            'row_exists': 'true',
            'image': changes ~ '.after_image',
            'image_complete': changes ~ '.image_complete',
            'present_columns': changes ~ '.present_columns',
        },
        {
            'when': changes ~ ".op = 'D'",
            'pk_string': changes ~ '.pk_string',
            'image_oper': changes ~ '.op',
            'is_before_image': 'false',
            'row_exists': 'false',
            'image': changes ~ '.before_image',
            'image_complete': changes ~ '.image_complete',
            'present_columns': changes ~ '.present_columns',
        },
        {
            'when': changes ~ ".op = 'U' and " ~ changes ~ '.pk_changed',
            'pk_string': old_pk_string,
            'image_oper': "'K'",
            'is_before_image': 'false',
            'row_exists': 'false',
            'image': changes ~ '.before_image',
            'image_complete': before_complete,
            'present_columns': 'map_keys(' ~ changes ~ '.before_image)',
        },
        {
            'when': changes ~ ".control_op = 'TRUNCATE'",
            'pk_string': 'cast(null as string)',
            'image_oper': "'T'",
            'is_before_image': 'false',
            'row_exists': 'false',
            'image': 'cast(null as map<string, string>)',
            'image_complete': 'false',
            'present_columns': 'cast(null as array<string>)',
        },
        {
            'when': changes ~ ".op = 'U' and " ~ changes ~ '.before_image is not null',
            'pk_string': 'coalesce(' ~ old_pk_string ~ ', ' ~ changes ~ '.pk_string)',
            'image_oper': "'B'",
            'is_before_image': 'true',
            'row_exists': 'true',
            'image': changes ~ '.before_image',
            'image_complete': before_complete,
            'present_columns': 'map_keys(' ~ changes ~ '.before_image)',
        },
    ]) }}
{%- endmacro %}
