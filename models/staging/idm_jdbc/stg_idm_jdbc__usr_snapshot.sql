{{ stage_idm_snapshot('usr') }}
