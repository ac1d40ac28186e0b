{{ current_state(ref('dim_usr_history')) }}
