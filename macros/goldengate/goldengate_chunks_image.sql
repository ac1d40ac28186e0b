{% macro goldengate_chunks_image(relation, image) %}
    {#- One image (`image`: before_map or after_map) of a trail record reassembled from its
        chunks (`relation`.chunks, in RecCount order, and `relation`.chunk_count): each
        column's pieces joined in order; a column only NULL stays NULL; an image no chunk
        has stays NULL. -#}
    case
        when {{ relation }}.chunk_count = 1 then {{ relation }}.chunks[0].{{ image }}
        when
            not exists(
                {{ relation }}.chunks, chunk -> chunk.{{ image }} is not null
            )
            then null
        else map_from_entries(transform(
            array_distinct(flatten(transform(
                {{ relation }}.chunks,
                chunk -> coalesce(
                    map_keys(chunk.{{ image }}),
                    cast(array() as array<string>)
                )
            ))),
            name -> struct(
                name,
                case
                    when
                        exists(
                            {{ relation }}.chunks,
                            chunk -> chunk.{{ image }}[name] is not null
                        )
                        then array_join(transform(
                            {{ relation }}.chunks,
                            chunk -> chunk.{{ image }}[name]
                        ), '')
                end
            )
        ))
    end
{%- endmacro %}
