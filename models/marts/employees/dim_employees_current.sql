{{ current_state('employees') }}
