{% macro cdc_landed_files_listing(source_system) %}
    {#- What stg_<source_system>__landed_files found this run, per landed table:
        {landed: {'readable': [file names it found readable, sorted],
                  'digest': an MD5 of every file of the table's folder, readable or not,
                            by path, modification time, size and problem,
                  'newest_readable': the latest modification time of a readable file, as
                            text (session time zone), none when no file is readable,
                  'newest': the latest modification time of any file, as text,
                  'files': [{'modified_at': text, 'fact': what the digest takes of it}]}}.
        One query a run per format: the first model that asks reads the whole list (built
        earlier in the run, or in the last run when a selection leaves it out) into a memo
        that the invocation's other models share (dbt gives every node the same `graph`; a
        new invocation parses a new one). Readers: cdc_landing_files_filter (which files a
        model reads) and cdc_inputs_digest (has a table's landed folder changed since a
        model read it). The list's relation comes from the graph, not from ref(): the
        digest asks on behalf of models that reach a landed table through views (the Qlik
        log and images through a table's full-load view), which need not depend on the
        list, and ref() there fails a run that selects such a model without the list
        ("dbt was unable to infer all dependencies"). -#}
    {%- set memo = graph.get('cdc_landed_files_listing') -%}
    {%- if memo is none -%}
        {%- set memo = {} -%}
        {%- do graph.update({'cdc_landed_files_listing': memo}) -%}
    {%- endif -%}
    {%- if source_system not in memo -%}
        {#- the calling node's own package's list first (ours, when a user's project
            defines no list of its own, is another package's) -#}
        {%- set lists = graph.nodes.values()
            | selectattr('resource_type', 'equalto', 'model')
            | selectattr('name', 'equalto', 'stg_' ~ source_system ~ '__landed_files')
            | list -%}
        {%- set own = lists | selectattr('package_name', 'equalto', model.package_name) | list -%}
        {%- set listing = (own or lists) | first -%}
        {%- set listing_relation = api.Relation.create(
            schema=listing.schema, identifier=listing.alias) -%}
        {%- set files = {} -%}
        {%- for row in run_query(
            'select landed_table, file_name, is_read, to_json(named_struct('
            ~ '\'path\', file_path, \'modified_at\', cast(modified_at as string),'
            ~ ' \'size\', size_bytes, \'problem\', problem)) as facts'
            ~ ' from ' ~ listing_relation
            ~ ' where landed_table is not null order by landed_table, file_name') -%}
            {%- set table = files.setdefault(row[0], {
                'readable': [], 'facts': [], 'modified': [], 'files': []}) -%}
            {%- set modified_at = fromjson(row[3]).get('modified_at') -%}
            {%- if row[2] -%}
                {%- do table.readable.append(row[1]) -%}
                {%- if modified_at is not none -%}
                    {%- do table.modified.append(modified_at) -%}
                {%- endif -%}
            {%- endif -%}
            {%- do table.facts.append(row[3]) -%}
            {%- do table.files.append({'modified_at': modified_at or '', 'fact': row[3]}) -%}
        {%- endfor -%}
        {%- set by_table = {} -%}
        {%- for landed, table in files.items() -%}
            {%- do by_table.update({landed: {
                'readable': table.readable,
                'digest': local_md5(table.facts | sort | join('\n\x00\n')),
                'newest_readable': (table.modified | max) if table.modified else none,
                'newest': table.files | map(attribute='modified_at') | max,
                'files': table.files}}) -%}
        {%- endfor -%}
        {%- do memo.update({source_system: by_table}) -%}
    {%- endif -%}
    {{ return(memo[source_system]) }}
{% endmacro %}
