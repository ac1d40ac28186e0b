{% macro qlik_ct_staged_rows(table_name) %}
    {#- The staged change-table rows of one Qlik table as its readers take them (the
        log's pairing, the change images, the quarantine view): stg_qlik_ct__<table> itself,
        or, with duplicate_resolution latest_load (qlik_ct_keeps_latest_load), a subquery
        over it in which a valid row is superseded, so invalid with that reason, when a later run
        staged another row with its change_seq and change_oper (one with other content: an
        exact copy is never staged twice). Malformed records are no delivery of a key and
        supersede nothing. The staging table is append-only: what the later row changes is
        decided here, on every read, from the few keys staged in more than one run. -#}
    {%- set staged = ref('stg_qlik_ct__' ~ table_name) -%}
    {%- if not cdc_history.qlik_ct_keeps_latest_load(table_name) -%}
        {{ return(staged) }}
    {%- endif -%}
    {%- set sql -%}
(
    select
        staged.* except (invalid_reason, is_valid),
        case
            when staged.is_valid and later.newest_load is not null
                then 'superseded: a later run staged a row with this change_seq and '
                || 'change_oper and other content (duplicate_resolution latest_load)'
            else staged.invalid_reason
        end as invalid_reason,
        staged.is_valid and later.newest_load is null as is_valid
    from {{ staged }} as staged
    left join (
        select
            raw_key,
            max(loaded_at) as newest_load
        from {{ staged }}
        where malformed_record is null
        group by raw_key
        having min(loaded_at) < max(loaded_at)
    ) as later
        on
            later.raw_key = staged.raw_key
            and later.newest_load > staged.loaded_at
)
    {%- endset -%}
    {{ return(sql) }}
{% endmacro %}
