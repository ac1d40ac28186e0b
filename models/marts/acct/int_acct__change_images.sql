{{ table_change_images('acct') }}
