{% macro qlik_ct_row_hash(layout, relation_alias) %}
    {#- A 64-bit hash of a landed change-table row, every column of the layout
        (qlik_ct_layout) in DDL order, and a malformed CSV record's raw text: tells exact
        duplicate deliveries from conflicting ones. (A NULL adds nothing to xxhash64, so the
        raw text column leaves every well-formed row's hash as it was.) -#}
    {%- set names = layout.header_columns + (layout.data_columns | map(attribute='name') | list)
        + ([layout.malformed_column] if layout.malformed_column else []) -%}
    xxhash64(
        {%- for name in names %}
        {{ relation_alias }}.{{ name }}{{ ',' if not loop.last }}
        {%- endfor %}
    )
{%- endmacro %}
