{{ current_state('acct') }}
