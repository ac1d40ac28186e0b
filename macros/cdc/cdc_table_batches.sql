{% macro cdc_table_batches(tables) %}
    {#- `tables` (a mapping or a list) cut into consecutive batches of at most
        cdc_tables_per_statement() entries each, in their order: a list of mappings (each
        entry with its value) or of lists; an empty list for no tables. -#}
    {%- set size = cdc_history.cdc_tables_per_statement() -%}
    {%- set names = tables | list -%}
    {%- set batches = [] -%}
    {%- for start in range(0, names | length, size) -%}
        {%- set names_of_batch = names[start:start + size] -%}
        {%- if tables is mapping -%}
            {%- set batch = {} -%}
            {%- for name in names_of_batch -%}
                {%- do batch.update({name: tables[name]}) -%}
            {%- endfor -%}
            {%- do batches.append(batch) -%}
        {%- else -%}
            {%- do batches.append(names_of_batch) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(batches) }}
{% endmacro %}
