{% macro cdc_view_fingerprint() %}
    {#- The fingerprint of the view being materialized, or none (create the view): an MD5 of
        - the project's code: the environment variable CDC_CODE_FINGERPRINT that cdc-dbt
          sets (python_udfs/code_fingerprint.py: dbt_project.yml, models, macros, the
          --vars, the versions of dbt and Spark); none without it;
        - the view's compiled SQL and its hooks (unrendered);
        - what the code cannot know, the landing: each source the view reads, directly or
          through other models, by its columns as the relation cache holds them (none when
          the cache does not describe it); a source that is a seed of this project (the
          shipped samples) by the file (and seed config) its table was last loaded
          from instead (cdc_seed_loaded; none without a record).
        A model's columns follow from the code and the landing, so its views need no more.
        The walk up the ancestors stops at a table or incremental model the relation cache
        describes (as the run's start listed it: not rewritten by this run, whose writes
        leave their relation undescribed or keep its columns, on_schema_change 'fail'):
        its columns stand for everything above it. Without that, a view over the shared
        change log (the as-of views, through the transaction boundaries) walked every
        captured table's models and sources: a run's cost per view grew with the number
        of tables (0.55 s a view at 100 tables, BENCHMARKS.md section 12). -#}
    {%- set code = env_var('CDC_CODE_FINGERPRINT', '') -%}
    {%- if not code -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set parts = [code, compiled_code] -%}
    {%- for hook in pre_hooks + post_hooks -%}
        {%- do parts.append(hook.sql) -%}
    {%- endfor -%}
    {#- every ancestor, level by level, up to the described tables -#}
    {%- set seen = {} -%}
    {%- set described = {} -%}
    {%- set walk = namespace(level=model.depends_on.nodes) -%}
    {%- for _ in range(200) if walk.level -%}
        {%- set above = [] -%}
        {%- for unique_id in walk.level if unique_id not in seen -%}
            {%- do seen.update({unique_id: true}) -%}
            {%- set node = graph.nodes.get(unique_id, {}) -%}
            {%- set columns = none -%}
            {%- if unique_id.startswith('model.')
                    and node.get('config', {}).get('materialized') in ('table', 'incremental') -%}
                {%- set relation = adapter.get_relation(
                    database=node.database, schema=node.schema, identifier=node.alias) -%}
                {%- set information = (relation.information or '') if relation is not none else '' -%}
                {%- if '\nSchema: ' in information -%}
                    {%- set columns = information.split('\nSchema: ')[-1] -%}
                {%- endif -%}
            {%- endif -%}
            {%- if columns is not none -%}
                {%- do described.update({unique_id: columns}) -%}
            {%- else -%}
                {%- do above.extend(node.get('depends_on', {}).get('nodes', [])) -%}
            {%- endif -%}
        {%- endfor -%}
        {%- set walk.level = above -%}
    {%- endfor -%}
    {%- for unique_id in described | sort -%}
        {%- do parts.append(unique_id ~ ' columns\n' ~ described[unique_id]) -%}
    {%- endfor -%}
    {%- for unique_id in seen | sort if unique_id.startswith('source.') -%}
        {%- set source = graph.sources[unique_id] -%}
        {%- set seed = cdc_history.cdc_seed_of_source(source) -%}
        {%- if seed is not none -%}
            {%- set loaded = cdc_history.cdc_seed_loaded(seed) -%}
            {%- if not loaded -%}
                {{ return(none) }}
            {%- endif -%}
            {%- do parts.append(unique_id ~ ' seed ' ~ loaded) -%}
        {%- else -%}
            {%- set relation = adapter.get_relation(
                database=source.database, schema=source.schema, identifier=source.identifier) -%}
            {%- set information = relation.information if relation is not none else none -%}
            {%- if not information or '\nSchema: ' not in information -%}
                {{ return(none) }}
            {%- endif -%}
            {%- do parts.append(unique_id ~ '\n' ~ information.split('\nSchema: ')[-1]) -%}
        {%- endif -%}
    {%- endfor -%}
    {{ return(local_md5(parts | join('\n\x00\n'))) }}
{% endmacro %}
