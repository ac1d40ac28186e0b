{{ table_change_images('usr') }}
