{{ stage_qlik_full_load('employees') }}
