{{ config(enabled=cdc_source_system_enabled('idm_jdbc')) }}
{#- One row per IDM event group (int_idm_jdbc__events_rolled_up): the XDS
    document the IDM JDBC driver's publisher channel emits for it (seed 002,
    tables 5-16 to 5-20; spec C.5), and whether the publisher would emit it at
    all (loopback, R1/R2, R3, unresolved query-back). The document is built
    for unpublished groups too whenever it can be, for reconciliation. Every
    text and attribute value is XML-escaped; a NULL value leaves its value-
    bearing element out (see the model's YAML). #}
{%- set allow_loopback = cdc_var('idm_jdbc_allow_loopback', false)
    | string | lower in ['true', '1', 'yes'] %}

with

event_groups as (

    select * from {{ ref('int_idm_jdbc__events_rolled_up') }}

),

configured as (

    select
        event_groups.*,
        {{ xds_source_schema('event_groups.table_name') }} as source_schema,
        event_groups.event_type in (5, 6, 7, 8) as is_query_back
    from event_groups

),

{# the attributes in document order: the logged events' columns in log
   order; for query-back row events (5, 6) every non-key column in declared
   order #}
attributes_listed as (

    select
        configured.*,
        case
            when configured.event_type in (5, 6)
                then {{ xds_row_attributes(
                    'configured.table_name', 'configured.snapshot_image'
                ) }}
            else transform(
                configured.field_columns_ordered,
                field -> named_struct(
                    'column_name', field.column_name,
                    'value_type', {{ xds_value_type(
                        'configured.table_name', 'field.column_name'
                    ) }},
                    'old_value', try_element_at(
                        filter(
                            configured.old_values_ordered,
                            entry -> entry.order_key = field.order_key
                        ),
                        1
                    ).old_value,
                    'new_value', try_element_at(
                        filter(
                            configured.values_ordered,
                            entry -> entry.order_key = field.order_key
                        ),
                        1
                    ).field_value
                )
            )
        end as document_attributes
    from configured

),

{# one element per attribute, NULL when it would be empty (array_join skips
   NULLs); concat_ws skips NULL parts, so a NULL value drops its remove-value
   or add-value #}
attributes_rendered as (

    select
        attributes_listed.*,
        concat(
            '<association>',
            {{ xds_escape(
                "concat(attributes_listed.table_key, ',table=',"
                ~ " attributes_listed.table_name, ',schema=',"
                ~ " attributes_listed.source_schema)"
            ) }},
            '</association>'
        ) as association_element,
        array_join(
            transform(
                attributes_listed.document_attributes,
                attribute -> case
                    when attributes_listed.event_type = 1
                        then concat(
                            '<add-attr attr-name="',
                            {{ xds_escape('attribute.column_name') }},
                            '">',
                            {{ xds_value(
                                'attribute.value_type', 'attribute.new_value'
                            ) }},
                            '</add-attr>'
                        )
                    when
                        attributes_listed.event_type = 2
                        and coalesce(
                            attribute.old_value, attribute.new_value
                        ) is not null
                        then concat_ws(
                            '',
                            '<modify-attr attr-name="',
                            {{ xds_escape('attribute.column_name') }},
                            '">',
                            concat(
                                '<remove-value>',
                                {{ xds_value(
                                    'attribute.value_type',
                                    'attribute.old_value'
                                ) }},
                                '</remove-value>'
                            ),
                            concat(
                                '<add-value>',
                                {{ xds_value(
                                    'attribute.value_type',
                                    'attribute.new_value'
                                ) }},
                                '</add-value>'
                            ),
                            '</modify-attr>'
                        )
                    when attributes_listed.event_type in (3, 5, 6, 7, 8)
                        then concat_ws(
                            '',
                            '<modify-attr attr-name="',
                            {{ xds_escape('attribute.column_name') }},
                            '"><remove-all-values/>',
                            concat(
                                '<add-value>',
                                {{ xds_value(
                                    'attribute.value_type',
                                    'attribute.new_value'
                                ) }},
                                '</add-value>'
                            ),
                            '</modify-attr>'
                        )
                end
            ),
            ''
        ) as attribute_elements
    from attributes_listed

),

documents_built as (

    select
        attributes_rendered.*,
        case
            {# without the table's schema there is no association #}
            when attributes_rendered.source_schema is null then null
            {# a query-back event has values only once read back #}
            when
                attributes_rendered.is_query_back
                and not coalesce(
                    attributes_rendered.is_resolved_from_snapshot, false
                )
                then null
            when attributes_rendered.event_type = 1
                then concat(
                    '<add class-name="',
                    {{ xds_escape('attributes_rendered.table_name') }},
                    '">',
                    attributes_rendered.association_element,
                    attributes_rendered.attribute_elements,
                    '</add>'
                )
            when attributes_rendered.event_type = 4
                then concat(
                    '<delete class-name="',
                    {{ xds_escape('attributes_rendered.table_name') }},
                    '">',
                    attributes_rendered.association_element,
                    '</delete>'
                )
            else concat(
                '<modify class-name="',
                {{ xds_escape('attributes_rendered.table_name') }},
                '">',
                attributes_rendered.association_element,
                attributes_rendered.attribute_elements,
                '</modify>'
            )
        end as xds_document
    from attributes_rendered

),

{# the publisher's own reasons first, in the order it applies them #}
publication_judged as (

    select
        documents_built.*,
        case
            {%- if not allow_loopback %}
            when documents_built.is_loopback then 'loopback'
            {%- endif %}
            when documents_built.is_superseded then 'superseded'
            when
                documents_built.is_query_back
                and documents_built.is_queryback_target_deleted
                then 'queryback_target_deleted'
            when
                documents_built.is_query_back
                and not coalesce(
                    documents_built.is_resolved_from_snapshot, false
                )
                then 'queryback_unresolved'
            when documents_built.source_schema is null
                then 'table_not_configured'
        end as not_published_reason
    from documents_built

),

final as (

    select
        publication_judged.order_key,
        publication_judged.record_ids,
        publication_judged.table_name,
        publication_judged.pk_string,
        publication_judged.event_type,
        publication_judged.not_published_reason is null as is_published,
        publication_judged.not_published_reason,
        publication_judged.xds_document
    from publication_judged

)

select * from final
