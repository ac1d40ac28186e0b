{{ stage_qlik_change_table('employees') }}
