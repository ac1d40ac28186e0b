{% materialization view, adapter='spark' -%}
    {#- dbt-spark's view materialization, with one shortcut: a view whose fingerprint
        (cdc_view_fingerprint: its compiled SQL, its hooks, the project's code and the
        columns of the landed tables it reads) is the one kept in its table properties is left as it is, with its
        hooks (the table functions they create were made from the same definition), when
        no full refresh is asked for; the run reports it as "unchanged". Otherwise the
        view is created as dbt-spark creates it, its hooks run, and only then the
        fingerprint is stored: a run killed in between leaves no fingerprint, so the next
        run creates the view and runs its hooks again. A view without post-hooks has
        nothing in between: its create statement stores the fingerprint
        (spark__create_view_as), one statement fewer. -#}
    {%- set fingerprint = cdc_history.cdc_view_fingerprint() -%}
    {%- set existing = load_cached_relation(this) -%}
    {%- if fingerprint and existing is not none and existing.is_view
            and not should_full_refresh()
            and ('cdc.fingerprint=' ~ fingerprint) in (existing.information or '') -%}
        {%- call noop_statement('main', 'unchanged', 'OK', 0) -%}
            {{ compiled_code }}
        {%- endcall -%}
        {{ return({'relations': [this.incorporate(type='view')]}) }}
    {%- endif -%}
    {#- a view without post-hooks stores its fingerprint in the statement that creates it
        (spark__create_view_as): there is nothing to run in between -#}
    {%- set at_create = fingerprint and not post_hooks -%}
    {%- if at_create -%}
        {%- do model.update({'cdc_fingerprint_at_create': fingerprint}) -%}
    {%- endif -%}
    {%- set result = dbt.materialization_view_spark() -%}
    {%- if fingerprint and not at_create -%}
        {%- call statement('cdc_view_fingerprint') -%}
            alter view {{ this }} set tblproperties (
                'cdc.fingerprint' = {{ cdc_history.sql_string_literal(fingerprint) }})
        {%- endcall -%}
    {%- endif -%}
    {{ return(result) }}
{%- endmaterialization %}
