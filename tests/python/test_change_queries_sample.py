"""Change queries on the shipped samples (docs/change-queries.md), read from the shared sample
build (conftest sample_build): `<table>_changes(from_point, to_point)` (Delta's table_changes),
`<table>_net_changes(from_point, to_point)` (Iceberg's net_changes) and `dim_<table>_live`
(Qlik Compose's live view).

Expected rows are worked out by hand from the seed rows (seeds/qlik_ct/employees*.csv,
seeds/openedge_cdc/, seeds/goldengate/ogg_trail_records.csv), never read back from the models.
The window is (from_point, to_point]: after from_point, at or before to_point. The Qlik
employees changes that pass staging are 101 (I 10), 103 (U 1 salary), 105 (U 2 name and
notes), 106 (D 3), 107 (I 3 again), 109 (key update 10 -> 11), 111 (U 11 manager_id NULL), 112
(D 2) and 121 (I 21); the full load (order_key 35 zeros) holds 1, 2 and 3.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "sample"  # the shared sample build (conftest sample_build)
LIVE_SCHEMA = "sample_live_check"  # copies of two sample tables, for the live view


def seq(number: int) -> str:
    """The order key of a Qlik employees change: its change_seq (seeds/qlik_ct)."""
    times = {
        101: "120000",
        103: "120500",
        105: "120500",
        106: "121000",
        107: "121000",
        109: "121500",
        111: "122000",
        112: "122500",
    }
    return f"20240301{times[number]}{number:021d}"


def pos(seqno: int, rba: int) -> str:
    """The order key of a GoldenGate trail position (spec F.3): lpad(seqno, 10) || lpad(rba, 20)."""
    return f"{seqno:010d}{rba:020d}"


def oe(sequence: int) -> str:
    """The order key of an OpenEdge change: _Change-Sequence, 20 digits."""
    return f"{sequence:020d}"


def _rows(spark: Any, sql: str) -> list[tuple[Any, ...]]:
    return sorted((tuple(row) for row in spark.sql(sql).collect()), key=repr)


def d(text: str) -> Decimal:
    return Decimal(text)


EMPLOYEE = "employee_id, first_name, salary, notes, change_type, change_op, order_key"


def test_changes_show_insert_update_and_delete_with_pre_and_post_images(
    spark: Any, sample_build: Any
) -> None:
    found = _rows(spark, f"select {EMPLOYEE} from {SCHEMA}.employees_changes('0', '{seq(106)}')")
    # from '0': after the full load (its order_key is all zeros), up to and with D 106
    assert found == sorted(
        [
            (10, "Dan", d("900.00"), None, "insert", "I", seq(101)),
            (1, "Ann", d("1000.00"), None, "update_preimage", "U", seq(103)),  # the B row
            (1, "Ann", d("1100.00"), None, "update_postimage", "U", seq(103)),
            (2, "Bob", d("1500.00"), "part-time", "update_preimage", "U", seq(105)),
            (2, "Rob", d("1500.00"), None, "update_postimage", "U", seq(105)),  # mask 0021
            (3, "Cid", d("1200.00"), None, "delete", "D", seq(106)),  # the row as it stood
        ],
        key=repr,
    )


def test_changes_by_time_show_a_key_update_as_one_update(spark: Any, sample_build: Any) -> None:
    rows = spark.sql(
        f"select {EMPLOYEE}, change_id, changed_at, pk_string"
        f" from {SCHEMA}.employees_changes('2024-03-01 12:05:00', '2024-03-01 12:15:00')"
    ).collect()
    # after 12:05 (103 and 105 excluded), up to 12:15 inclusive: D 106, I 107 and the key
    # update 109 (employee 10 becomes 11): its pre-image holds the old key, its post-image the
    # new one, one change
    assert sorted((tuple(row)[:7] for row in rows), key=repr) == sorted(
        [
            (3, "Cid", d("1200.00"), None, "delete", "D", seq(106)),
            (3, "Cid", d("1300.00"), "rehired, again", "insert", "I", seq(107)),
            (10, "Dan", d("900.00"), None, "update_preimage", "K", seq(109)),
            (11, "Dan", d("900.00"), None, "update_postimage", "U", seq(109)),
        ],
        key=repr,
    )
    move = [row for row in rows if row["order_key"] == seq(109)]
    assert {row["pk_string"] for row in move} == {"employee_id=10", "employee_id=11"}
    assert len({row["change_id"] for row in move}) == 1
    assert {row["changed_at"] for row in move} == {datetime(2024, 3, 1, 12, 15)}


def test_net_changes_collapse_each_key_over_the_window(spark: Any, sample_build: Any) -> None:
    found = _rows(
        spark,
        f"select employee_id, first_name, salary, manager_id, change_type, change_op, order_key"
        f" from {SCHEMA}.employees_net_changes('0', '{seq(111)}')",
    )
    assert found == sorted(
        [
            (1, "Ann", d("1000.00"), None, "update_preimage", "U", seq(103)),
            (1, "Ann", d("1100.00"), None, "update_postimage", "U", seq(103)),
            (2, "Bob", d("1500.00"), 1, "update_preimage", "U", seq(105)),
            (2, "Rob", d("1500.00"), 1, "update_postimage", "U", seq(105)),
            # D 106 then I 107 with another salary: one update, the last change's columns
            (3, "Cid", d("1200.00"), 1, "update_preimage", "I", seq(107)),
            (3, "Cid", d("1300.00"), 1, "update_postimage", "I", seq(107)),
            # 10: inserted (101) and moved away (109) in the window: nothing. 11: moved in
            # (109) then manager_id set NULL (111): one insert of its last row
            (11, "Dan", d("900.00"), None, "insert", "U", seq(111)),
        ],
        key=repr,
    )


OE = "custnum, name, balance, change_type, change_op, order_key"


@pytest.mark.parametrize(
    ("function", "to_point", "expected"),
    [
        pytest.param(
            "oe_customer_changes",
            "1002",
            [
                (7, "Lee", d("0.00"), "insert", "I", oe(1001)),
                (7, "Lee", d("0.00"), "update_preimage", "U", oe(1002)),
                (7, "Lee", d("50.00"), "update_postimage", "U", oe(1002)),
            ],
            id="OpenEdge level 3: I 1001 then U 1002",
        ),
        pytest.param(
            "oe_customer_net_changes",
            "1002",
            [(7, "Lee", d("50.00"), "insert", "U", oe(1002))],
            id="net: insert then update is one insert of the last row",
        ),
        pytest.param(
            "oe_customer_changes",
            "1003",
            [
                (7, "Lee", d("0.00"), "insert", "I", oe(1001)),
                (7, "Lee", d("0.00"), "update_preimage", "U", oe(1002)),
                (7, "Lee", d("50.00"), "update_postimage", "U", oe(1002)),
                (7, "Lee", d("50.00"), "delete", "D", oe(1003)),
            ],
            id="OpenEdge: then D 1003",
        ),
        pytest.param(
            "oe_customer_net_changes", "1003", [], id="net: insert then delete is nothing"
        ),
    ],
)
def test_openedge_changes_and_net_changes(
    spark: Any, sample_build: Any, function: str, to_point: str, expected: list[Any]
) -> None:
    # seeds/openedge_cdc: custnum 7 is the only oe_customer change at or before 1003
    found = _rows(spark, f"select {OE} from {SCHEMA}.{function}('0', '{to_point}')")
    assert found == sorted(expected, key=repr)


ORDER = "order_id, status, amount, change_type, change_op, order_key"


def test_goldengate_backout_is_four_changes_and_no_net_change(
    spark: Any, sample_build: Any
) -> None:
    window = f"'{pos(13, 700)}', '{pos(13, 1100)}'"
    # trail 13: I 9 (800), compressed U of 80 to LOST (900, AMOUNT carried), then the NonStop
    # backout: undo U of 80 back to SHIPPED (1000), undo D of 9 (1100)
    changes = _rows(spark, f"select {ORDER} from {SCHEMA}.ogg_order_changes({window})")
    assert changes == sorted(
        [
            (9, "NEW", d("1.00"), "insert", "I", pos(13, 800)),
            (80, "SHIPPED", d("5.00"), "update_preimage", "U", pos(13, 900)),
            (80, "LOST", d("5.00"), "update_postimage", "U", pos(13, 900)),
            (80, "LOST", d("5.00"), "update_preimage", "U", pos(13, 1000)),
            (80, "SHIPPED", d("5.00"), "update_postimage", "U", pos(13, 1000)),
            (9, "NEW", d("1.00"), "delete", "D", pos(13, 1100)),
        ],
        key=repr,
    )
    # net: 9 inserted and deleted, 80 back to the row it had: carry-over removed, nothing left
    assert _rows(spark, f"select {ORDER} from {SCHEMA}.ogg_order_net_changes({window})") == []


@pytest.mark.parametrize(
    ("call", "message"),
    [
        pytest.param(
            "employees_changes('0', 'yesterday')",
            "employees_changes: to_point must be latest, an order_key (digits) or a timestamp, "
            "got yesterday",
            id="a word",
        ),
        pytest.param(
            "employees_net_changes('now', 'latest')",
            "employees_net_changes: from_point must be latest, an order_key (digits) or a "
            "timestamp, got now",
            id="Spark's special value",
        ),
        pytest.param(
            "employees_changes(null, 'latest')",
            "employees_changes: from_point must be latest, an order_key (digits) or a "
            "timestamp, got NULL",
            id="NULL",
        ),
        pytest.param(
            "employees_changes('latest', '2024-02-30')",
            "employees_changes: to_point must be latest, an order_key (digits) or a timestamp, "
            "got 2024-02-30",
            id="an impossible date, in an empty window",
        ),
    ],
)
def test_changes_reject_a_point_they_cannot_read(
    spark: Any, sample_build: Any, call: str, message: str
) -> None:
    with pytest.raises(Exception) as raised:
        spark.sql(f"select * from {SCHEMA}.{call}").collect()
    assert message in str(raised.value)


def test_changes_view_holds_every_change_from_the_full_load(spark: Any, sample_build: Any) -> None:
    found = _rows(
        spark,
        f"select employee_id, change_type, order_key from {SCHEMA}.dim_employees_changes"
        f" where change_type in ('insert', 'delete')",
    )
    full_load = "0" * 35
    assert found == sorted(
        [
            (1, "insert", full_load),
            (2, "insert", full_load),
            (3, "insert", full_load),  # 4 is in the full load twice: quarantined
            (10, "insert", seq(101)),
            (3, "delete", seq(106)),
            (3, "insert", seq(107)),
            (2, "delete", seq(112)),
            (21, "insert", "20240301123000000000000000000000121"),
        ],
        key=repr,
    )


LIVE = "employee_id, salary, last_op, last_order_key, is_applied"
# the sample's current employees (test_pipeline_sample): 1 after U 103, 3 after I 107, 11
# after U 111, 21 after I 121; all folded into the history by the build
CURRENT = [
    (1, d("1100.00"), "U", seq(103), True),
    (3, d("1300.00"), "I", seq(107), True),
    (11, d("900.00"), "U", seq(111), True),
    (21, d("650.00"), "I", "20240301123000000000000000000000121", True),
]


def test_live_view_equals_the_current_state_when_everything_is_folded(
    spark: Any, sample_build: Any
) -> None:
    assert _rows(spark, f"select {LIVE} from {SCHEMA}.dim_employees_live") == sorted(
        CURRENT, key=repr
    )


@pytest.fixture
def live_copy(spark: Any, sample_build: Any) -> Any:
    """The sample's employees images and history copied into a schema of their own, with
    dim_employees_live's stored definition pointed at them: images appended to the copy are
    written but not folded, as after a build of int_employees__change_images alone."""
    spark.sql(f"drop schema if exists {LIVE_SCHEMA} cascade")
    spark.sql(f"create schema {LIVE_SCHEMA}")
    for table in ("int_employees__change_images", "dim_employees_history"):
        spark.sql(f"create table {LIVE_SCHEMA}.{table} as select * from {SCHEMA}.{table}")
    text = spark.sql(f"show create table {SCHEMA}.dim_employees_live").collect()[0][0]
    query = text[text.lower().index("\nas ") + 4 :]
    for qualifier in (f"`{SCHEMA}`.", f"{SCHEMA}."):
        query = query.replace(qualifier, f"{LIVE_SCHEMA}.")
    spark.sql(f"create view {LIVE_SCHEMA}.dim_employees_live as {query}")
    yield LIVE_SCHEMA
    spark.sql(f"drop schema if exists {LIVE_SCHEMA} cascade")


PENDING = "20240301124000000000000000000000{:03d}"


def test_live_view_shows_images_the_history_has_not_folded_in(spark: Any, live_copy: str) -> None:
    # three images written after the build (loaded_at later than every change_loaded_at):
    # U of 21 (salary 700), D of 3, I of 40; plus the U's before-image, which changes nothing
    spark.sql(
        f"""
        insert into {live_copy}.int_employees__change_images
        select
            change_id, 'qlik_ct', 'employees', 'qlik:replicate_task', order_key,
            timestamp '2024-03-01 12:40:00', pk_string, image_oper, image_oper = 'B',
            image_oper in ('I', 'U', 'B'), employee_id, first_name, 'Jay',
            cast(salary as decimal(10, 2)), date '2024-03-01', cast(null as int),
            cast(null as string), true, cast(null as array<string>),
            current_timestamp() + interval 1 minute
        from values
            ('p1', '{PENDING.format(201)}', 'employee_id=21', 'B', 21, 'Jo', 650.00),
            ('p1', '{PENDING.format(201)}', 'employee_id=21', 'U', 21, 'Jo', 700.00),
            ('p2', '{PENDING.format(202)}', 'employee_id=3', 'D', 3, 'Cid', 1300.00),
            ('p3', '{PENDING.format(203)}', 'employee_id=40', 'I', 40, 'Max', 500.00)
            as pending(change_id, order_key, pk_string, image_oper, employee_id, first_name,
                       salary)
        """
    )
    found = _rows(spark, f"select {LIVE} from {live_copy}.dim_employees_live")
    assert found == sorted(
        [
            CURRENT[0],  # 1 untouched
            CURRENT[2],  # 11 untouched; 3 deleted by the pending D
            (21, d("700.00"), "U", PENDING.format(201), False),
            (40, d("500.00"), "I", PENDING.format(203), False),
        ],
        key=repr,
    )
    # the history copy has not changed: its current state still has 3 and the old 21
    current = _rows(
        spark,
        f"select employee_id, salary from {live_copy}.dim_employees_history"
        f" where is_current and not is_deleted",
    )
    assert current == sorted([(row[0], row[1]) for row in CURRENT], key=repr)
