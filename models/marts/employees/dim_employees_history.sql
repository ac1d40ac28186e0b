{{ history_from_changes('employees') }}
