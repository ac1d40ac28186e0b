{{ history_from_changes('order_lines') }}
