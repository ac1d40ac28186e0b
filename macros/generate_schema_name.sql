{% macro generate_schema_name(custom_schema_name, node) -%}
    {#- A custom schema is used verbatim (raw landing schemas are shared with the loader);
        everything else goes to the target schema. -#}
    {%- if custom_schema_name is none -%}
        {{ target.schema }}
    {%- else -%}
        {{ custom_schema_name | trim }}
    {%- endif -%}
{%- endmacro %}
