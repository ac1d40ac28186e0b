{% macro qlik_kafka_value_text(raw, qlik_type, encoding=none) %}
    {#- A value of a data message (text as the JSON carried it) as the canonical text of the
        change log, checked against its column's Qlik Replicate type from the metadata
        message (spec B.3; type names: INT4, NUMERIC, REAL8, DATETIME, WSTRING, NCLOB, BLOB,
        ...); NULL when it is not a value of that type (the caller quarantines the message,
        naming the column). Integers lose padding, times are Spark's text, binary travels as
        Base64 like every binary value of the log: its text is hex (spec B.1, the default)
        or, where `encoding` (a SQL expression giving 'hex' or 'base64' per column, from
        cdc_column_encoding) says base64, Base64; only that one is read
        (cdc_binary_from_text). -#}
    case
        when {{ raw }} is null then null
        when {{ qlik_type }} in ('INT1', 'UINT1', 'INT2')
            then cast(try_cast({{ raw }} as smallint) as string)
        when {{ qlik_type }} in ('UINT2', 'INT4')
            then cast(try_cast({{ raw }} as int) as string)
        when {{ qlik_type }} in ('UINT4', 'INT8')
            then cast(try_cast({{ raw }} as bigint) as string)
        when {{ qlik_type }} = 'UINT8'
            then cast(try_cast({{ raw }} as decimal(20, 0)) as string)
        when {{ qlik_type }} = 'NUMERIC'
            then case
                when try_cast({{ raw }} as decimal(38, 10)) is not null
                    then trim({{ raw }})
            end
        when {{ qlik_type }} in ('REAL4', 'REAL8')
            then case
                when try_cast({{ raw }} as double) is not null then trim({{ raw }})
            end
        when {{ qlik_type }} = 'DATE'
            then cast(try_cast({{ raw }} as date) as string)
        when {{ qlik_type }} = 'TIME'
            then case
                when {{ raw }} rlike '^[0-9]{2}:[0-9]{2}:[0-9]{2}([.][0-9]{1,9})?$'
                    then {{ raw }}
            end
        when {{ qlik_type }} = 'DATETIME'
            then cast(try_cast({{ raw }} as timestamp) as string)
        when {{ qlik_type }} = 'BOOLEAN'
            then cast(try_cast({{ raw }} as boolean) as string)
        when {{ qlik_type }} in ('BLOB', 'BYTES')
            {%- if encoding %}
            then base64(case
                when {{ encoding }} = 'base64'
                    then {{ cdc_history.cdc_binary_from_text(raw, 'base64') }}
                else {{ cdc_history.cdc_binary_from_text(raw, 'hex') }}
            end)
            {%- else %}
            then base64({{ cdc_history.cdc_binary_from_text(raw, 'hex') }})
            {%- endif %}
        else {{ raw }}
    end
{%- endmacro %}
