{% macro cdc_malformed_reason() %}
    {#- The quarantine reason of a landed CSV record the reader could not split into the
        table's fields (a field too many or too few, or a quote left open that ran on to the
        end of the file): a SQL string literal. The raw text is in the quarantine's
        record_json. -#}
    {{ return(cdc_history.sql_string_literal(
        "malformed CSV record: not the header's number of fields, or a quote left open")) }}
{%- endmacro %}
