{{ point_in_time('order_lines') }}
