{% macro goldengate_landed_tables() %}
    {#- The landed tables of GoldenGate: the decoded trail records (var
        goldengate_trail_table) when a configured table has form trail, the Big Data JSON
        messages (var goldengate_json_table) when one has form json. The names are checked
        as identifiers (they name tables and folders; var goldengate_schema is checked with
        every format's schema, cdc_validate_vars). -#}
    {%- set landed = [] -%}
    {%- set forms = cdc_history.goldengate_forms() -%}
    {%- if 'trail' in forms -%}
        {%- do landed.append(cdc_history.cdc_identifier(
            cdc_history.cdc_var('goldengate_trail_table'), 'var goldengate_trail_table')) -%}
    {%- endif -%}
    {%- if 'json' in forms -%}
        {%- set json_table = cdc_history.cdc_identifier(
            cdc_history.cdc_var('goldengate_json_table'), 'var goldengate_json_table') -%}
        {%- if json_table in landed -%}
            {{ exceptions.raise_compiler_error(
                "goldengate_landed_tables: vars goldengate_trail_table and "
                ~ "goldengate_json_table both name '" ~ json_table ~ "'") }}
        {%- endif -%}
        {%- do landed.append(json_table) -%}
    {%- endif -%}
    {{ return(landed) }}
{% endmacro %}
