{{ current_state('usr') }}
