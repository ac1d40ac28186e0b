{{ point_in_time('employees') }}
