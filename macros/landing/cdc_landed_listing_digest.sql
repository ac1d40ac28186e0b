{% macro cdc_landed_listing_digest(locations) %}
    {#- What the landed folders at `locations` list now, as text for a table's fingerprint:
        'listing ' and an MD5 of each data file's name, size and modification time (the
        UDF cdc_landed_listing_digest, python_udfs.landed_files.listing_digest: no file is
        opened), so a file added, removed, grown or rewritten changes it. None (build the
        table) when `locations` is none or the file system does not say a file's
        modification time. One query; the locations reach SQL only as string literals. -#}
    {%- if locations is none -%}
        {{ return(none) }}
    {%- endif -%}
    {%- set query -%}
        select cdc_landed_listing_digest({{ cdc_history.sql_string_array(locations) }}) as digest
    {%- endset -%}
    {%- set digest = run_query(query).columns[0].values()[0] -%}
    {{ return(none if digest is none else 'listing ' ~ digest) }}
{% endmacro %}
