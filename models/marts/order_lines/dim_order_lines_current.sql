{{ current_state('order_lines') }}
