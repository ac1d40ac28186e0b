{% macro openedge_cdc_field_names() %}
    {#- The landed field name of each role of the tracking table (_Cdc-Change-Tracking) and
        of the change tables' metadata part, for the release that wrote them (var
        openedge_cdc_release: 12.8 or 12.2, spec D.3), with single names overridden by var
        openedge_cdc_field_names ({role: name}). Names are quoted where they reach SQL
        (cdc_quoted_name), so `_Change-Sequence` is fine. Roles: policy_id, tran_id,
        time_stamp, change_sequence, operation, field_map, recid, source_table_number,
        partition_id, tenant_id, changed_columns (our extension: the field names
        CDC_get_changed_columns returned at extraction, comma-separated), and in change
        tables continuation_position, array_index, fragment. -#}
    {%- set common = {
        'policy_id': '_Policy-Id',
        'tran_id': '_Tran-Id',
        'time_stamp': '_Time-Stamp',
        'change_sequence': '_Change-Sequence',
        'operation': '_Operation',
        'source_table_number': '_Source-Table-Number',
        'tenant_id': '_Tenant-Id',
        'changed_columns': '_Changed-Columns',
        'continuation_position': '_Continuation-Position',
        'array_index': '_ArrayIndex',
        'fragment': '_Fragment'
    } -%}
    {%- set releases = {
        '12.8': {'field_map': '_Change-FieldMap', 'recid': '_Recid',
                 'partition_id': '_Partition-Id'},
        '12.2': {'field_map': '_Source-FieldMap', 'recid': '_Source-Rowid',
                 'partition_id': '_Source-Partition-Id'}
    } -%}
    {%- set release = cdc_history.cdc_var('openedge_cdc_release', '12.8') | string -%}
    {%- if release not in releases -%}
        {{ exceptions.raise_compiler_error(
            "openedge_cdc_field_names: var openedge_cdc_release must be 12.8 or 12.2 (the "
            ~ "release whose field names the landed tables carry, spec D.3), got '"
            ~ release ~ "'") }}
    {%- endif -%}
    {%- set names = {} -%}
    {%- do names.update(common) -%}
    {%- do names.update(releases[release]) -%}
    {%- set overrides = cdc_history.cdc_var('openedge_cdc_field_names', {}) -%}
    {%- if overrides is not mapping -%}
        {{ exceptions.raise_compiler_error(
            "openedge_cdc_field_names: var openedge_cdc_field_names must map roles to landed "
            ~ "field names, got '" ~ overrides ~ "'") }}
    {%- endif -%}
    {%- for role, name in overrides.items() -%}
        {%- if role not in names -%}
            {{ exceptions.raise_compiler_error(
                "openedge_cdc_field_names: var openedge_cdc_field_names has unknown role '"
                ~ role ~ "' (roles: " ~ names.keys() | sort | join(', ') ~ ")") }}
        {%- endif -%}
        {%- if name is not string or name | trim == '' -%}
            {{ exceptions.raise_compiler_error(
                "openedge_cdc_field_names: the landed name of role '" ~ role
                ~ "' must be a non-empty string, got '" ~ name ~ "'") }}
        {%- endif -%}
        {%- do names.update({role: name}) -%}
    {%- endfor -%}
    {{ return(names) }}
{% endmacro %}
