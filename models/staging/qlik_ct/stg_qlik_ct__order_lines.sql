{{ stage_qlik_change_table('order_lines') }}
