{{ point_in_time('acct') }}
