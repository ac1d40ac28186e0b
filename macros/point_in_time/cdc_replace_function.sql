{% macro cdc_replace_function(function, signature, body) %}
    {#- The statement that (re)creates the persistent SQL function <schema>.<function>
        (`signature`: its parameters and RETURNS clause; `body`: the query after RETURN) in
        the model's schema, or nothing when the function already has exactly this
        definition: its fingerprint (an MD5 of signature and body) is kept in the
        function's comment. Creating a table function analyses its whole body, every run;
        reading its description does not (an empty hook runs no statement). -#}
    {%- set name = this.schema ~ '.' ~ function -%}
    {%- set fingerprint = 'cdc.definition=' ~ local_md5(signature ~ '\n' ~ body) -%}
    {%- if execute -%}
        {%- set found = run_query(
            'show user functions in ' ~ this.schema ~ ' like ' ~ cdc_history.sql_string_literal(function)) -%}
        {%- if found | length > 0 -%}
            {%- for row in run_query('describe function extended ' ~ name) -%}
                {%- if fingerprint in (row[0] or '') -%}
                    {{ return('') }}
                {%- endif -%}
            {%- endfor -%}
        {%- endif -%}
    {%- endif -%}
    {{ return(
        'create or replace function ' ~ name ~ signature
        ~ '\n    comment ' ~ cdc_history.sql_string_literal(fingerprint)
        ~ '\n    return ' ~ body) }}
{% endmacro %}
