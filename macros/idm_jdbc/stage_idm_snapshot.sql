{% macro stage_idm_snapshot(table_name) %}
    {#- The whole body of stg_idm_jdbc__<snapshot_table>: one row per row of a landed copy of
        an IDM source table (its current rows), as the canonical key string and row-image
        map, for resolving query-back events (spec C.7). A view. -#}
    {%- set table = cdc_table_config(table_name) -%}
    {%- if not table.get('snapshot_table') -%}
        {{ exceptions.raise_compiler_error(
            "stage_idm_snapshot: table '" ~ table_name ~ "' has no snapshot_table") }}
    {%- endif -%}
    {%- set relation = source('idm_jdbc', table.snapshot_table) -%}
    {%- set landed_types = {} -%}
    {%- if execute -%}
        {%- for column in adapter.get_columns_in_relation(relation) -%}
            {%- do landed_types.update({column.name | lower: column.data_type | lower}) -%}
        {%- endfor -%}
    {%- endif -%}
    {{ config(materialized='view') }}
    {{ depends_on_landing_seed(table.snapshot_table, 'idm_jdbc') }}

with

source as (

    select * from {{ relation }}

),

final as (

    select
        {{ sql_string_literal(table_name) }} as table_name,
        {{ cdc_pk_string(cdc_key_columns(table_name), "cast(source.{column} as string)") }}
            as pk_string,
        map(
            {%- for name in table['columns'] %}
            {{ sql_string_literal(name | lower) }},
            {{ cdc_value_text('source.' ~ name, landed_types.get(name | lower, 'string')) }}
            {{- ',' if not loop.last }}
            {%- endfor %}
        ) as row_image
    from source

)

select * from final
{% endmacro %}
