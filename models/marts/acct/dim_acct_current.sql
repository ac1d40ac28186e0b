{{ current_state(ref('dim_acct_history')) }}
