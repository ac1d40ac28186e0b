{% macro cdc_quoted_name(name) %}
    {#- A name as a Spark SQL quoted identifier: `name`, a backtick inside doubled. For names
        Spark itself reported (a landed file's columns); configured names are checked with
        cdc_identifier instead. -#}
    {{ return('`' ~ (name | string | replace('`', '``')) ~ '`') }}
{% endmacro %}
