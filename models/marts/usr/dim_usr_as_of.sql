{{ point_in_time('usr') }}
