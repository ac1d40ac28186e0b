{% macro cdc_seed_checksum_of_source(source) %}
    {#- The checksum of the seed of this project that a source node names (the shipped
        samples land as seeds and are read as sources), matched by schema and name; none
        for a source that is not one of our seeds. Readers: cdc_view_fingerprint and
        cdc_inputs_digest, which identify such a source by the seed file's content. -#}
    {%- set name = (source.schema ~ '.' ~ source.identifier) | lower -%}
    {%- for seed in graph.nodes.values()
          if seed.resource_type == 'seed' and (seed.schema ~ '.' ~ seed.alias) | lower == name -%}
        {{ return(seed.checksum.checksum) }}
    {%- endfor -%}
    {{ return(none) }}
{% endmacro %}
