{% macro cdc_table_property(relation, key) %}
    {#- A table property's value, or none when the table or the property does not exist:
        from the relation's "Table Properties: [k=v, ...]" (cdc_relation_details: the
        relation cache, so the value as the run found it, else `describe table extended`).
        The readers are the on-run-start repair and registration and a model reading its
        own table before its hooks run; no value of ours holds ", " (states, column names,
        timestamps, digests). -#}
    {%- set properties = cdc_history.cdc_relation_details(relation).get('Table Properties', '') | trim -%}
    {%- if properties.startswith('[') and properties.endswith(']') -%}
        {%- for pair in properties[1:-1].split(', ') -%}
            {%- set parts = pair.split('=', 1) -%}
            {%- if parts[0] == key -%}
                {{ return(parts[1] if parts | length == 2 else '') }}
            {%- endif -%}
        {%- endfor -%}
    {%- endif -%}
    {{ return(none) }}
{% endmacro %}
