"""Qlik Kafka messages end to end on the shipped samples (seeds/qlik_kafka, spec B), read from
the shared sample build (conftest sample_build).

Expected values are worked out by hand from the sample messages (seed 001 rules, spec B.5 to
B.9), not read back from the models: the B.9 worked example, a partial columnMask, an all-zero
changeMask, a schema version change, a key update on a composite key, a DELETE from
beforeData, duplicates, a reload and every kind of invalid message.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "sample"  # the shared sample build (conftest sample_build)


@pytest.fixture(scope="module")
def kafka_build(sample_build: Any) -> Any:
    """The shared build of the shipped samples (conftest), which holds the Kafka tables."""
    return sample_build


def _rows(spark: Any, sql: str) -> list[tuple[Any, ...]]:
    return sorted((tuple(row) for row in spark.sql(sql).collect()), key=repr)


def seq(time_part: str, number: int) -> str:
    return time_part + str(number).zfill(35 - len(time_part))


def customers(spark: Any, point: str) -> list[tuple[Any, ...]]:
    return _rows(spark, f"select id, name, email, phone from {SCHEMA}.customer_as_of('{point}')")


CUSTOMER_AT = [
    pytest.param(
        "2024-03-01 12:59:00",
        [(7, "Lee", "lee@x", None), (8, "Kim", "kim@x", None)],
        id="baseline: REFRESH rows",
    ),
    pytest.param(
        seq("2024030113000000", 210),
        [(7, "Lee", "lee@y", None), (8, "Kim", "kim@x", None)],
        id="B.9 update: changeMask 04 = EMAIL",
    ),
    pytest.param(seq("2024030113000000", 211), [(8, "Kim", "kim@x", None)], id="B.9 delete"),
    pytest.param(
        "2024-03-01 13:10:00",
        [(8, "Kimberly", "kim@x", None), (9, "Ann", None, None)],
        id="real NULL stays NULL; uncaptured EMAIL carried forward",
    ),
    pytest.param(
        "2024-03-01 14:02:00",
        [
            (8, "Kimberly", "kim@x", None),
            (9, "Ann", None, "555-0199"),
            (10, "Bo", "bo@x", "555-0100"),
        ],
        id="version 2 adds PHONE",
    ),
    pytest.param(
        "2024-03-01 14:59:00",
        [(9, "Ann", None, "555-0199"), (10, "Bo", "bo@x", "555-0100")],
        id="DELETE from beforeData; conflicting duplicates change nothing",
    ),
    pytest.param(
        "2024-03-01 15:00:00",
        [(9, "Ann", "ann@x", "555-0199"), (11, "Cy", None, None)],
        id="reload resets the table",
    ),
    pytest.param(
        "latest",
        [(9, "Ann", "ann@x", "555-0199"), (11, "Cy", "cy@x", None)],
        id="latest",
    ),
]


@pytest.mark.parametrize(("point", "expected"), CUSTOMER_AT)
def test_customer_as_of(spark: Any, kafka_build: Any, point: str, expected: list[Any]) -> None:
    assert customers(spark, point) == sorted(expected, key=repr)


def test_current_equals_latest(spark: Any, kafka_build: Any) -> None:
    current = _rows(spark, f"select id, name, email, phone from {SCHEMA}.dim_customer_current")
    assert current == customers(spark, "latest")


def test_the_reload_ends_each_live_key_showing_the_state_it_ends(
    spark: Any, kafka_build: Any
) -> None:
    """The reload's TRUNCATE (15:00) gives each key live before it a deleted version
    (change_op T) showing the state it ends, merged from partial images (9's EMAIL NULL,
    its PHONE from version 2), its key included (spec F.5: a tombstone keeps the last state).
    9 comes back with the reload's row; 10 stays deleted; 7 and 8, deleted before, end once."""
    truncated = _rows(
        spark,
        f"select id, name, email, phone, is_deleted, valid_to_order_key is null"
        f" from {SCHEMA}.dim_customer_history where change_op = 'T'",
    )
    assert truncated == sorted(
        [
            (9, "Ann", None, "555-0199", True, False),
            (10, "Bo", "bo@x", "555-0100", True, True),
        ],
        key=repr,
    )


def consistent_customers(spark: Any, point: str) -> list[tuple[Any, ...]]:
    return _rows(
        spark,
        f"select id, name, email, phone from {SCHEMA}.customer_as_of_consistent('{point}')",
    )


# Transaction F1 (INSERT of 10 at 14:01, event 1, not the last) never completes; every
# other transaction does. Transaction B1 is two events (the update at ...210, the delete at
# ...211). The newest boundary before F1 is E1 (13:15, the update of 9).
AFTER_E1 = [(8, "Kimberly", "kim@x", None), (9, "Ann", None, None)]
CONSISTENT_CUSTOMER_AT = [
    pytest.param(
        seq("2024030113000000", 210),
        [(7, "Lee", "lee@x", None), (8, "Kim", "kim@x", None)],
        id="inside B1: the state before it (the last boundary is order_item's A5, 12:40)",
    ),
    pytest.param(seq("2024030113000000", 211), [(8, "Kim", "kim@x", None)], id="B1 complete"),
    pytest.param("2024-03-01 14:02:00", AFTER_E1, id="F1 incomplete: nothing from 14:01 on"),
    pytest.param("latest", AFTER_E1, id="latest stops before F1 as well"),
]


@pytest.mark.parametrize(("point", "expected"), CONSISTENT_CUSTOMER_AT)
def test_customer_as_of_consistent(
    spark: Any, kafka_build: Any, point: str, expected: list[Any]
) -> None:
    assert consistent_customers(spark, point) == sorted(expected, key=repr)


def test_consistent_mode_rejects_what_as_of_rejects(spark: Any, kafka_build: Any) -> None:
    with pytest.raises(Exception, match="as_of: the point must be"):
        consistent_customers(spark, "now")


ITEM_11 = (1, 1, 5, Decimal("12.50"), 1.25, None, "first", "long text", bytes.fromhex("CAFE"))
ITEM_13 = (
    1,
    3,
    1,
    Decimal("3.00"),
    None,
    datetime(2024, 3, 1, 12, 20),
    'Grüße, "quoted"',
    None,
    bytes.fromhex("00FF"),
)
ITEM_AT = [
    pytest.param("2024-03-01 12:10:00", [ITEM_11], id="baseline"),
    pytest.param(
        seq("2024030112150000", 100), [ITEM_11, (*ITEM_13[:1], 2, *ITEM_13[2:])], id="insert"
    ),
    pytest.param(seq("2024030112150000", 110), [ITEM_11, ITEM_13], id="key update 2 -> 3"),
    pytest.param(
        "2024-03-01 12:35:00",
        [(*ITEM_11[:3], Decimal("13.75"), *ITEM_11[4:8], bytes.fromhex("BEEF")), ITEM_13],
        id="price and BLOB; bad NUMERIC and bad hex quarantined",
    ),
    pytest.param("latest", [ITEM_13], id="delete, two-byte masks"),
]


@pytest.mark.parametrize(("point", "expected"), ITEM_AT)
def test_order_item_as_of(spark: Any, kafka_build: Any, point: str, expected: list[Any]) -> None:
    rows = _rows(
        spark,
        "select order_id, item_no, qty, price, weight, shipped_at, note, remark, label "
        f"from {SCHEMA}.order_item_as_of('{point}')",
    )
    assert rows == sorted(expected, key=repr)


def test_change_log_maps_the_worked_example(spark: Any, kafka_build: Any) -> None:
    rows = _rows(
        spark,
        "select order_key, op, is_snapshot, pk_string, txn_id, txn_seq, txn_last, "
        "changed_columns, before_image['email'], after_image['email'], flags "
        f"from {SCHEMA}.fct_cdc_changes where source_table = 'customer' and pk_string = 'id=7'",
    )
    txn = "000000000000000000000000000000B1"
    assert rows == sorted(
        [
            ("0" * 35, "I", True, "id=7", None, None, None, None, None, "lee@x", []),
            (
                seq("2024030113000000", 210),
                "U",
                False,
                "id=7",
                txn,
                1,
                False,
                ["email"],
                "lee@x",
                "lee@y",
                [],
            ),
            (
                seq("2024030113000000", 211),
                "D",
                False,
                "id=7",
                txn,
                2,
                True,
                None,
                "lee@y",
                None,
                [],
            ),
        ],
        key=repr,
    )


def test_flags(spark: Any, kafka_build: Any) -> None:
    rows = _rows(
        spark,
        f"select order_key, op, control_op, flags from {SCHEMA}.fct_cdc_changes "
        "where source_table = 'customer' and size(flags) > 0",
    )
    assert rows == sorted(
        [
            (seq("2024030113100000", 400), "U", None, ["columns_not_captured"]),
            (seq("2024030113150000", 410), "U", None, ["no_column_changed"]),
            (seq("2024030114010000", 500), "I", None, ["transaction_incomplete"]),
            (seq("2024030114030000", 520), "D", None, ["delete_from_before_data"]),
            ("2024030115000000" + "0" * 19, None, "TRUNCATE", ["reload"]),
            ("2024030115000000" + "0" * 18 + "1", "I", None, ["reload"]),
            ("2024030115000000" + "0" * 18 + "1", "I", None, ["reload"]),
        ],
        key=repr,
    )


EXPECTED_QUARANTINE = sorted(
    [
        ("kafka_metadata/0/4", "metadata tableVersion two is not an integer"),
        ("kafka_sales_customer/0/8", "operation MERGE is not REFRESH, INSERT, UPDATE or DELETE"),
        ("kafka_sales_customer/1/8", "CDC operation without changeSequence"),
        ("kafka_sales_customer/0/9", "envelope magic is xxMSG, not atMSG"),
        ("kafka_sales_customer/1/9", "value is not JSON"),
        ("kafka_sales_customer/0/10", "changeMask 08: bit 3 set but the table has 3 columns"),
        ("kafka_sales_customer/1/10", "column ID: abc is not a valid INT4"),
        ("kafka_sales_customer/0/11", "no metadata for table customer"),
        ("kafka_sales_customer/1/11", "message names table ORDER_ITEM"),
        ("kafka_sales_customer/0/5", "conflicting duplicate"),
        ("kafka_sales_customer/1/6", "conflicting duplicate"),
        ("kafka_sales_order_item/0/2", "column PRICE: 12,50 is not a valid NUMERIC"),
        (
            "kafka_sales_order_item/1/2",
            "value of label is not valid hex text of a binary value",
        ),
    ]
)


def test_quarantine_reasons(spark: Any, kafka_build: Any) -> None:
    rows = _rows(
        spark,
        f"select raw_key, reason from {SCHEMA}.fct_cdc_quarantine"
        " where source_system = 'qlik_kafka'",
    )
    assert [key for key, _ in rows] == sorted(key for key, _ in EXPECTED_QUARANTINE)
    reasons = dict(rows)
    for key, fragment in EXPECTED_QUARANTINE:
        assert fragment in reasons[key], (key, reasons[key])
