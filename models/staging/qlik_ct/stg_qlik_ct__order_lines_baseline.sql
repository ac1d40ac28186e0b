{{ stage_qlik_full_load('order_lines') }}
