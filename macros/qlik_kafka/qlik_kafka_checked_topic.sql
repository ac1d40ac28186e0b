{% macro qlik_kafka_checked_topic(topic, what) %}
    {#- `topic` unchanged when it can be landed; otherwise stops, naming `what` (for example
        "cdc_tables.customer.topic"). With qlik_kafka_landing tables or seeds a topic is the
        name of a landed table, so it must be an identifier (cdc_is_identifier). In files
        mode a topic is the folder <qlik_kafka_landing_root>/<topic>/, matched exactly: any
        folder name works (src.customers, sales-customers) except `.`, `..` and names with
        a slash, a backslash, a control character, a colon or a glob character (*?[]{}),
        which Spark's paths read as something else. The name reaches SQL only as a string
        literal; the folder's table is registered as qlik_kafka_landed_table_name(topic). -#}
    {%- if not what -%}
        {{ exceptions.raise_compiler_error("qlik_kafka_checked_topic: what is required") }}
    {%- endif -%}
    {%- set landing = cdc_history.cdc_var('qlik_kafka_landing') -%}
    {%- if landing != 'files' -%}
        {%- if not cdc_history.cdc_is_identifier(topic) -%}
            {{ exceptions.raise_compiler_error(
                "qlik_kafka_checked_topic: " ~ what ~ " is '" ~ topic ~ "', which is not an "
                ~ "identifier (^[A-Za-z_][A-Za-z0-9_]*$); with qlik_kafka_landing '" ~ landing
                ~ "' a topic is the name of a landed table. In files mode "
                ~ "(qlik_kafka_landing: files) a topic is a folder and any folder name works") }}
        {%- endif -%}
    {%- elif topic is not string or topic in ['', '.', '..']
          or modules.re.search('[/\\\\:*?\\[\\]{}\\x00-\\x1f\\x7f]', topic) is not none -%}
        {{ exceptions.raise_compiler_error(
            "qlik_kafka_checked_topic: " ~ what ~ " is '" ~ topic ~ "', which is not a "
            ~ "usable folder name: in files mode a topic is the folder "
            ~ "<qlik_kafka_landing_root>/<topic>/, so it must not be empty, . or .., nor hold "
            ~ "a slash, a backslash, a control character, a colon or any of *?[]{}") }}
    {%- endif -%}
    {{ return(topic) }}
{% endmacro %}
