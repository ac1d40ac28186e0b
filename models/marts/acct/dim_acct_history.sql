{{ history_from_changes('acct') }}
