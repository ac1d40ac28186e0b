{% macro cdc_table_fingerprint() %}
    {#- The fingerprint of the table being materialized, or none (build it): an MD5 of the
        project's code (the environment variable CDC_CODE_FINGERPRINT that cdc-dbt sets;
        none without it), the table's compiled SQL and its hooks (unrendered), and the
        digest of what it reads (cdc_inputs_digest; none when that cannot be told, e.g. a
        table over a landed folder read whole). A table written by content (config meta
        cdc_written_by_content: the landed-file lists, which read the file system through a
        table function) reads the folders of its config meta cdc_landed_locations: their
        digest is the listing's (cdc_landed_listing_digest: each file's name, size and
        modification time, so a file added, removed or rewritten changes it); without
        those locations it is none, and every run lists the folders again, unless it reads
        nothing at all (config meta cdc_reads_nothing: those lists outside files mode,
        which are empty). Equal fingerprints: the same SQL over the same rows, so the
        table holds what a rebuild would write. -#}
    {%- set code = env_var('CDC_CODE_FINGERPRINT', '') -%}
    {%- set meta = config.get('meta') or {} -%}
    {%- set written_by_content = meta.get('cdc_written_by_content', false)
        and not meta.get('cdc_reads_nothing', false) -%}
    {%- if not code -%}
        {%- set inputs = none -%}
    {%- elif written_by_content -%}
        {%- set inputs = cdc_history.cdc_landed_listing_digest(meta.get('cdc_landed_locations')) -%}
    {%- else -%}
        {%- set inputs = cdc_history.cdc_inputs_digest() -%}
    {%- endif -%}
    {%- if not inputs -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set parts = [code, compiled_code, inputs] -%}
    {%- for hook in pre_hooks + post_hooks -%}
        {%- do parts.append(hook.sql) -%}
    {%- endfor -%}
    {{ return(local_md5(parts | join('\n\x00\n'))) }}
{% endmacro %}
