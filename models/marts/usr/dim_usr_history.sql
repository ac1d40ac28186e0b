{{ history_from_changes('usr') }}
