{%- if 'usr' in var('cdc_tables') -%}
{{ stage_idm_snapshot('usr') }}
{%- else -%}
{{ config(enabled=false) }}
{%- endif -%}
