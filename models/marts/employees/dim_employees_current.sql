{{ current_state(ref('dim_employees_history')) }}
