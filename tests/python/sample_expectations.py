"""Expected results of the shipped IDM JDBC sample (seeds/idm_jdbc), worked out by hand from
the event log rows, shared by every scenario that lands it: as seeds (test_pipeline_sample),
as CSV files (test_landing_vendor_csv) and as Parquet files (test_qlik_ct_proof)."""

from __future__ import annotations

SPECIAL_KEY = ", ; ' + \" = \\ < >"
SNAPSHOT_DUPLICATE = "duplicate key: 2 rows of the snapshot have this key"
NOT_BASE64 = "is not valid Base64 text of a binary value"

# dim_usr_current: (pk_string, idu, fname, lname, photo)
IDM_USERS = [
    # 101-103 insert, 104-109 updates, 110 delete, 111 query-back insert resolved from the
    # snapshot (current values), 210 query-back field event (fname)
    ("idu=1", 1, "John", "Doe", b"\xbb\xbb"),
    # 212: a padded key is another key (spec C.4 warns), flagged, kept
    ('idu=" 3"', 3, "Pad", None, None),
    # 218 (status E: the vault was not updated, the database was) then 219 (type 3);
    # 224 (query-back, lname) finds idu=4 twice in the snapshot: not resolved
    ("idu=4", 4, "Kit", None, None),
    # idu=7: deleted by 207 (loopback); 208 (status n) is quarantined
]

# dim_acct_current: (k1, k2, note)
IDM_ACCOUNTS = [("A+B", 7, "x"), (SPECIAL_KEY, 8, "y")]

# fct_cdc_quarantine where source_system = 'idm_jdbc': (raw_key, reason)
EXPECTED_IDM_QUARANTINE = [
    ("208", "status n is not one of N, S, W, E, F (case-sensitive)"),
    ("213", "event_type 9 is reserved (1 to 8)"),
    ("214", "event_type 2 needs a column_name"),
    ("215", "bad table_key: unterminated quote starting at 4"),
    ("216", "event_time is NULL"),
    ("217", "duplicate record_id"),
    ("217", "duplicate record_id"),
    # a NULL record_id is quarantined; the other rows flow
    (None, "record_id is NULL"),
    # values checked against the table's declared columns (var cdc_tables)
    ("225", "key value of idu is not a valid int"),
    ("226", f"new_value of photo {NOT_BASE64}"),
    ("227", "column_name shoe_size is not a column of usr"),
    ("228", "table_key names idu, k2 but the key of usr is idu"),
    ("229", "key value of k2 is not a valid int"),
    ("230", f"old_value of photo {NOT_BASE64}"),
    ("231", "table_name grp is not an idm_jdbc table of var cdc_tables (acct, usr)"),
    ("232", "table_key names a column more than once"),
    # one event log row landed twice: two quarantine rows, two quarantine_ids
    ("233", "duplicate record_id"),
    ("233", "duplicate record_id"),
    # snapshot rows that are not used to resolve query-back events
    *[("idu=4", f"snapshot row not used: {SNAPSHOT_DUPLICATE}")] * 2,
    (None, "snapshot row not used: null key value in idu"),
]
