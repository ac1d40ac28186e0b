{% macro cdc_macro_named(name) %}
    {#- The macro called `name` as a node sees it: its own project's (a format or column
        list of the user's project, or ours when this project is the root), else this
        package's (a node of the user's project sees our macros only as cdc_history.<name>);
        none when neither has it. How the shared macros reach a macro named in the registry
        or in a test's arguments, from our project and a user's alike. -#}
    {%- if name in context -%}
        {{ return(context[name]) }}
    {%- endif -%}
    {%- set package = context.get('cdc_history') -%}
    {%- if package is not none and name in package -%}
        {{ return(package[name]) }}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}
