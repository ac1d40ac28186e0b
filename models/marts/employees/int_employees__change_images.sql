{{ table_change_images('employees') }}
