{% macro goldengate_value_text(raw, data_type, encoding='base64') %}
    {#- A value of a trail or JSON image (text as the image carried it) as the canonical
        text of the change log for a column of `data_type` (the configured Spark type);
        NULL when it is not a value of that type (the caller quarantines the record, naming
        the column). Integers lose padding; a timestamp may be written as GoldenGate does
        (2024-03-01 12:00:00.000000, 2024-03-01:12:00:00, or with T); binary is decoded
        from the text with `encoding` (cdc_binary_from_text: hex | base64, the column's
        cdc_column_encoding, only that one: text valid in both is read the configured way)
        and travels as Base64 in the log. -#}
    {%- set data_type = data_type | lower -%}
    {%- if data_type == 'string' -%}
        {{ raw }}
    {%- elif data_type == 'binary' -%}
        base64({{ cdc_history.cdc_binary_from_text(raw, encoding) }})
    {%- elif data_type == 'timestamp' -%}
        cast(try_cast(regexp_replace(
            trim({{ raw }}), '^([0-9]{4}-[0-9]{2}-[0-9]{2})[:]', '$1 '
        ) as timestamp) as string)
    {%- elif data_type in ['float', 'double'] -%}
        cast(try_cast(trim({{ raw }}) as double) as string)
    {%- else -%}
        cast(try_cast(trim({{ raw }}) as {{ data_type }}) as string)
    {%- endif -%}
{%- endmacro %}
