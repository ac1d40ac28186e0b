{{ current_state(ref('dim_order_lines_history')) }}
