{% macro qlik_ct_validate_vars() %}
    {#- The Qlik change tables' vars that reach SQL as identifiers, checked at parse time
        by cdc_validate_vars (the format's <system>_validate_vars hook): the header prefix
        may be empty, so what must be an identifier is <prefix>change_seq. -#}
    {%- do cdc_history.cdc_identifier(
        cdc_history.cdc_var('qlik_ct_header_prefix') ~ 'change_seq', 'var qlik_ct_header_prefix + change_seq') -%}
{% endmacro %}
