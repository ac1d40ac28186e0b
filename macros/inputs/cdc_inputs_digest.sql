{% macro cdc_inputs_digest() %}
    {#- An MD5 of what the model being built reads, as of now, or none when that cannot be
        told without reading it. Its ancestors, walked through views to the first table on
        each path:
        - a table or incremental model: the id of its last write (cdc_written_id; none
          when it has no record);
        - a seed, or a source that is one of our seeds (the shipped samples): the file (and
          seed config) its table was last loaded from (cdc_seed_loaded; none without a
          record);
        - a node that declares the landed tables it reads (config meta cdc_landed_inputs:
          {'source_system': s, 'tables': [landed names]}, the formats' staging of landed
          files): in files mode, those tables' folders by every file's path, modification
          time, size and problem (cdc_landed_files_listing), in place of its sources of s
          and of stg_<s>__landed_files;
        - any other source (a table registered by the user, a landed folder read whole):
          none, the content cannot be told.
        A model that reads no relation at all (config meta cdc_reads_nothing: a staging
        model whose landing gives it no rows, like the landed-file lists outside files
        mode) has one constant digest.
        Equal digests mean the model would read the same rows as when it recorded the
        digest (cdc.inputs: cdc_write_finished, the table materialization), so a model
        whose inputs are unchanged has nothing new (cdc_inputs_unchanged). -#}
    {%- if not execute or model.resource_type != 'model' -%}
        {{ return(none) }}
    {%- endif -%}
    {%- if (model.config.get('meta') or {}).get('cdc_reads_nothing', false) -%}
        {{ return(local_md5('reads nothing')) }}
    {%- endif -%}
    {%- set parts = [] -%}
    {%- set seen = {} -%}
    {%- set state = namespace(known=true) -%}
    {%- set walk = namespace(level=cdc_history.cdc_inputs_parents(model, parts)) -%}
    {%- for _ in range(200) if walk.level and state.known -%}
        {%- set above = [] -%}
        {%- for unique_id in walk.level if unique_id not in seen and state.known -%}
            {%- do seen.update({unique_id: true}) -%}
            {%- if unique_id.startswith('model.') -%}
                {%- set node = graph.nodes[unique_id] -%}
                {%- if node.config.materialized in ['view', 'ephemeral'] -%}
                    {%- do above.extend(cdc_history.cdc_inputs_parents(node, parts)) -%}
                {%- else -%}
                    {%- set written = cdc_history.cdc_written_id(api.Relation.create(
                        database=node.database, schema=node.schema, identifier=node.alias)) -%}
                    {%- if written -%}
                        {%- do parts.append(unique_id ~ ' written ' ~ written) -%}
                    {%- else -%}
                        {%- set state.known = false -%}
                    {%- endif -%}
                {%- endif -%}
            {%- elif unique_id.startswith('seed.') or unique_id.startswith('source.') -%}
                {%- set seed = graph.nodes[unique_id] if unique_id.startswith('seed.')
                    else cdc_history.cdc_seed_of_source(graph.sources[unique_id]) -%}
                {%- set loaded = cdc_history.cdc_seed_loaded(seed) if seed is not none else none -%}
                {%- if loaded -%}
                    {%- do parts.append(unique_id ~ ' seed ' ~ loaded) -%}
                {%- else -%}
                    {%- set state.known = false -%}
                {%- endif -%}
            {%- else -%}
                {%- set state.known = false -%}
            {%- endif -%}
        {%- endfor -%}
        {%- set walk.level = above -%}
    {%- endfor -%}
    {#- no parent at all: what it reads is not in the graph (a table function over the
        file system, a relation named in its SQL), so it cannot be told -#}
    {%- if not state.known or walk.level or not parts -%}
        {{ return(none) }}
    {%- endif -%}
    {{ return(local_md5(parts | sort | join('\n'))) }}
{% endmacro %}

{% macro cdc_inputs_parents(node, parts) %}
    {#- The parents cdc_inputs_digest walks on from `node`: all of them, but
        - the models a node names in config meta cdc_inputs_ignore (a parent whose rows the
          node reads change only when other inputs of the node change: a Qlik table's
          images read its full loads from the shared Qlik log, which is written for every
          table, while the table's rows there change only with its staging and its
          full-load folder, both inputs of the images too);
        - for a node that declares its landed tables (config meta cdc_landed_inputs) in
          files mode, its sources of that format and its stg_<system>__landed_files, replaced
          by the declared tables' folder digests, added to `parts`. -#}
    {%- set ignored = (node.config.get('meta') or {}).get('cdc_inputs_ignore') or [] -%}
    {%- set parents = [] -%}
    {%- for unique_id in node.depends_on.nodes
          if unique_id.split('.') | last not in ignored -%}
        {%- do parents.append(unique_id) -%}
    {%- endfor -%}
    {%- set declared = (node.config.get('meta') or {}).get('cdc_landed_inputs') -%}
    {%- if declared and cdc_history.cdc_var(declared.source_system ~ '_landing', '') == 'files' -%}
        {%- set system = declared.source_system -%}
        {%- set listing = cdc_history.cdc_landed_files_listing(system) -%}
        {%- for landed in declared.tables -%}
            {%- do parts.append('landed ' ~ system ~ ' ' ~ landed ~ ' '
                ~ listing.get(landed, {}).get('digest', 'no file')) -%}
        {%- endfor -%}
        {%- set kept = [] -%}
        {%- for unique_id in parents
              if not unique_id.endswith('.stg_' ~ system ~ '__landed_files')
              and not (unique_id.startswith('source.')
                       and graph.sources[unique_id].source_name == system) -%}
            {%- do kept.append(unique_id) -%}
        {%- endfor -%}
        {{ return(kept) }}
    {%- endif -%}
    {{ return(parents) }}
{% endmacro %}
