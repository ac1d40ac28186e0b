{{ table_change_images('order_lines') }}
