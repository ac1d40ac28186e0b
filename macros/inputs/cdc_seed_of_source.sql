{% macro cdc_seed_of_source(source) %}
    {#- The seed of this project that a source node names (the shipped samples land as
        seeds and are read as sources), matched by schema and name; none for a source that
        is not one of our seeds. Readers: cdc_view_fingerprint and cdc_inputs_digest, which
        identify such a source by the content its table was loaded from (cdc_seed_loaded). -#}
    {%- set name = (source.schema ~ '.' ~ source.identifier) | lower -%}
    {%- for seed in graph.nodes.values()
          if seed.resource_type == 'seed' and (seed.schema ~ '.' ~ seed.alias) | lower == name -%}
        {{ return(seed) }}
    {%- endfor -%}
    {{ return(none) }}
{% endmacro %}
