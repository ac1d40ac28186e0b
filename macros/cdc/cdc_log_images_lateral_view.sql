{% macro cdc_log_images_lateral_view(changes, columns) %}
    {#- The lateral view that unfolds each canonical change (rows aliased `changes`) into its
        images in one pass, as rows of `image`: one struct per kind of cdc_log_image_kinds
        (cdc_image_struct_of_log: typed `columns`, or the text map when none), the kinds the
        change lacks left out. Follows the `from` of int_<table>__change_images's and
        fct_cdc_change_images's unfolding. -#}
    lateral view inline(filter(
        array(
            {%- for kind in cdc_history.cdc_log_image_kinds(changes) %}
            {{ cdc_history.cdc_image_struct_of_log(columns, kind) }}{{ ',' if not loop.last }}
            {%- endfor %}
        ),
        unfolded_image -> unfolded_image is not null
    )) image
{%- endmacro %}
