"""Oracle GoldenGate end to end on the shipped samples (seeds/goldengate, spec E), read from the
shared sample build (conftest sample_build).

Expected values are worked out by hand from the sample records (seed 004 rules, spec E.3 to
E.8), not read back from the models: the E.7 and E.8 worked examples, compressed updates (a
missing column carried forward, an explicit NULL), key updates (B then A, 135, 115, JSON),
chunked values, records whose Hdr-Ind is not E inside and between transactions, a NonStop
backout applied as compensation, a held chunk chain, a transaction that never completes and
every kind of invalid record or message.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

import pytest

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "sample"  # the shared sample build (conftest sample_build)


@pytest.fixture(scope="module")
def goldengate_build(sample_build: Any) -> Any:
    """The shared build of the shipped samples (conftest), which holds the GoldenGate tables."""
    return sample_build


def pos(seqno: int, rba: int) -> str:
    """The order key of a trail position (spec F.3): lpad(seqno, 10) || lpad(rba, 20)."""
    return f"{seqno:010d}{rba:020d}"


def rba(number: int) -> str:
    """The RBA part of an order key: lpad(rba, 20)."""
    return f"{number:020d}"


def _rows(spark: Any, sql: str) -> list[tuple[Any, ...]]:
    return sorted((tuple(row) for row in spark.sql(sql).collect()), key=repr)


def orders(spark: Any, relation: str) -> list[tuple[Any, ...]]:
    return _rows(spark, f"select order_id, status, amount from {SCHEMA}.{relation}")


def d(text: str) -> Decimal:
    return Decimal(text)


AFTER_T3 = [(7, "NEW", None), (8, "NEW", d("5.00"))]
AFTER_T5 = [(70, "PAID", None), (80, "SHIPPED", d("5.00"))]
ORDER_AT = [
    pytest.param(pos(12, 1500), [(5, "NEW", d("10.00"))], id="E.7 insert"),
    pytest.param(
        pos(12, 1650), [(5, "PAID", d("10.00"))], id="E.7 FieldComp: AMOUNT missing, carried"
    ),
    pytest.param(pos(12, 1790), [], id="E.7 key-only delete"),
    pytest.param(pos(12, 1900), [], id="E.7 GGSPurgedata truncate"),
    pytest.param(pos(13, 100), [(7, "NEW", d("20.50"))], id="insert in the next trail file"),
    pytest.param(
        pos(13, 300),
        [(7, "NEW", None)],
        id="explicit NULL is NULL; the Hdr-Ind X record inside the transaction is not applied",
    ),
    pytest.param(pos(13, 450), AFTER_T3, id="the Hdr-Ind Z record between transactions: nothing"),
    pytest.param(pos(13, 500), AFTER_T3, id="a before image alone changes nothing"),
    pytest.param(
        pos(13, 600),
        [(7, "NEW", None), (80, "SHIPPED", d("5.00"))],
        id="B then A key update: the new key carries AMOUNT",
    ),
    pytest.param(pos(13, 700), AFTER_T5, id="unified key update (135): carried NULL"),
    pytest.param(
        pos(13, 900),
        [(9, "NEW", d("1.00")), (70, "PAID", None), (80, "LOST", d("5.00"))],
        id="inside the transaction a backout undoes",
    ),
    pytest.param(pos(13, 1200), AFTER_T5, id="undo records applied as compensation"),
    pytest.param(
        "2024-03-01 12:01:00", [(5, "PAID", d("10.00"))], id="a time: IO Time of the update"
    ),
    pytest.param("2024-03-01 12:40:00", AFTER_T5, id="a time after the backout"),
    pytest.param(
        "latest",
        [*AFTER_T5, (11, "NEW", d("3.00")), (12, "NEW", d("7.00"))],
        id="latest: bad records (IOType 134, B insert, AMOUNT ten) change nothing",
    ),
]


@pytest.mark.parametrize(("point", "expected"), ORDER_AT)
def test_trail_order_as_of(
    spark: Any, goldengate_build: Any, point: str, expected: list[Any]
) -> None:
    assert orders(spark, f"ogg_order_as_of('{point}')") == sorted(expected, key=repr)


CONSISTENT_AT = [
    pytest.param(pos(13, 900), AFTER_T5, id="inside the backout transaction: the state before"),
    pytest.param(
        "latest",
        [*AFTER_T5, (12, "NEW", d("7.00"))],
        id="latest stops before the transaction that never completes",
    ),
]


@pytest.mark.parametrize(("point", "expected"), CONSISTENT_AT)
def test_trail_order_as_of_consistent(
    spark: Any, goldengate_build: Any, point: str, expected: list[Any]
) -> None:
    assert orders(spark, f"ogg_order_as_of_consistent('{point}')") == sorted(expected, key=repr)


def test_current_equals_latest(spark: Any, goldengate_build: Any) -> None:
    for table in ("ogg_order", "ogg_order_json"):
        assert orders(spark, f"dim_{table}_current") == orders(spark, f"{table}_as_of('latest')")


DOC_1 = (1, "en", "Intro", "Hello, long world", datetime(2024, 3, 1, 13, 0), b"\x00\x01\x02")
DOCUMENT_AT = [
    pytest.param(
        pos(13, 2300),
        [DOC_1, (2, "de", "Titel", None, None, None)],
        id="three chunks reassembled in RecCount order",
    ),
    pytest.param(
        pos(13, 2400),
        [DOC_1, (2, "at", "Titel AT", None, None, None)],
        id="GGSPKUpdate (115) moves the key, the rest carried",
    ),
    pytest.param(
        "latest",
        [DOC_1, (3, "fr", "Bonjour", "Salut", None, None)],
        id="held chain, compressed delete, conflicting duplicate",
    ),
]


@pytest.mark.parametrize(("point", "expected"), DOCUMENT_AT)
def test_trail_document_as_of(
    spark: Any, goldengate_build: Any, point: str, expected: list[Any]
) -> None:
    rows = _rows(
        spark,
        "select doc_id, lang, title, body, edited_at, attachment"
        f" from {SCHEMA}.ogg_document_as_of('{point}')",
    )
    rows = [(*row[:5], bytes(row[5]) if row[5] is not None else None) for row in rows]
    assert rows == sorted(expected, key=repr)


JSON_AT = [
    pytest.param(pos(12, 1500), [(5, "NEW", d("10.00"))], id="E.8 insert"),
    pytest.param(pos(12, 1650), [(6, "NEW", d("10.00"))], id="E.8 key update carries AMOUNT"),
    pytest.param(pos(12, 1790), [], id="E.8 key-only delete"),
    pytest.param("2024-03-01 12:04:00", [(7, "NEW", d("3.00"))], id="insert after the truncate"),
    pytest.param("2024-03-01 12:05:00", [(7, "PAID", d("3.00"))], id="_isMissing: carried"),
    pytest.param("latest", [(7, "PAID", None)], id="explicit null; bad messages change nothing"),
]


@pytest.mark.parametrize(("point", "expected"), JSON_AT)
def test_json_order_as_of(
    spark: Any, goldengate_build: Any, point: str, expected: list[Any]
) -> None:
    assert orders(spark, f"ogg_order_json_as_of('{point}')") == sorted(expected, key=repr)


def _log(spark: Any, source_system: str) -> list[tuple[Any, ...]]:
    return [
        tuple(row)
        for row in spark.sql(
            "select substr(order_key, 11) as rba, op, control_op, pk_string, pk_before,"
            " changed_columns, before_image, after_image, image_complete"
            f" from {SCHEMA}.fct_cdc_changes where source_system = '{source_system}'"
            " and order_key like '0000000012%' order by order_key"
        ).collect()
    ]


def test_worked_example_e7(spark: Any, goldengate_build: Any) -> None:
    """Spec E.7: the expected canonical changes of trail file 12."""
    assert _log(spark, "ogg_trail") == [
        (
            rba(1500),
            "I",
            None,
            "order_id=5",
            None,
            None,
            None,
            {"order_id": "5", "status": "NEW", "amount": "10.00"},
            True,
        ),
        (
            rba(1650),
            "U",
            None,
            "order_id=5",
            None,
            ["status"],
            None,
            {"order_id": "5", "status": "PAID"},
            False,
        ),
        (rba(1790), "D", None, "order_id=5", None, None, {"order_id": "5"}, None, False),
        (rba(1900), None, "TRUNCATE", None, None, None, None, None, False),
    ]
    transactions = _rows(
        spark,
        f"select substr(order_key, 11), txn_seq, txn_last from {SCHEMA}.fct_cdc_changes"
        " where source_system = 'ogg_trail' and order_key like '0000000012%'",
    )
    assert transactions == sorted(
        [
            (rba(1500), 1, False),
            (rba(1650), 2, False),
            (rba(1790), 3, True),
            (rba(1900), 1, True),
        ],
        key=repr,
    )


def test_worked_example_e8(spark: Any, goldengate_build: Any) -> None:
    """Spec E.8: the expected canonical changes of the four messages (the replayed copy of
    message 2, with another current_ts, collapses onto it)."""
    rows = _log(spark, "ogg_json")[:4]
    assert rows == [
        (
            rba(1500),
            "I",
            None,
            "order_id=5",
            None,
            None,
            None,
            {"order_id": "5", "status": "NEW", "amount": "10.00"},
            True,
        ),
        (
            rba(1650),
            "U",
            None,
            "order_id=6",
            {"order_id": "5"},
            ["order_id"],
            {"order_id": "5", "status": "NEW"},
            {"order_id": "6", "status": "NEW"},
            False,
        ),
        (rba(1790), "D", None, "order_id=6", None, None, {"order_id": "6"}, None, False),
        (rba(1900), None, "TRUNCATE", None, None, None, None, None, False),
    ]


def test_flags(spark: Any, goldengate_build: Any) -> None:
    rows = _rows(
        spark,
        f"select raw_key, flags from {SCHEMA}.fct_cdc_changes"
        " where source_system like 'ogg%' and size(flags) > 0",
    )
    assert rows == sorted(
        [
            ("13/600", ["before_image_from:13/500", "key_update"]),
            ("13/700", ["key_update"]),
            ("13/1000", ["undo"]),
            ("13/1100", ["undo"]),
            ("13/2000", ["reassembled_from_chunks"]),
            ("13/2400", ["key_update"]),
            ("13/2700", ["fetched_not_logged"]),
            ("14/1300", ["transaction_incomplete"]),
            ("ogg_sales_orders/0/1", ["key_update"]),
            ("ogg_sales_orders/1/6", ["before_image_missing"]),
        ],
        key=repr,
    )


def test_control_changes_and_transaction_ids(spark: Any, goldengate_build: Any) -> None:
    assert _rows(
        spark,
        f"select raw_key, source_table, control_op from {SCHEMA}.fct_cdc_changes"
        " where source_system like 'ogg%' and control_op is not null",
    ) == sorted(
        [
            ("12/1900", "ogg_order", "TRUNCATE"),
            ("13/3000", "ogg_document", "DDL"),
            ("ogg_sales_orders/0/3", "ogg_order_json", "TRUNCATE"),
        ],
        key=repr,
    )
    txn = _rows(
        spark,
        f"select raw_key, txn_id from {SCHEMA}.fct_cdc_changes"
        " where raw_key in ('14/1100', '13/900', 'ogg_sales_orders/1/5')",
    )
    assert txn == sorted(
        [
            ("13/900", "trail:" + pos(13, 800)),
            ("14/1100", "0.14.3.1100"),
            ("ogg_sales_orders/1/5", "0.7.1.2000"),
        ],
        key=repr,
    )


QUARANTINED = [
    ("13/1200", "trail record: not a table change: IOType 1 (Abort) is a NonStop TMF"),
    ("13/1300", "trail record: IOType 134 is not a known code (spec E.2)"),
    ("13/1400", "trail record: BeforeAfter B on an insert"),
    ("13/1500", "trail record: column amount: ten is not a valid decimal(10,2)"),
    ("13/200", "trail record: Hdr-Ind is X, not E: not a record written by Extract"),
    ("13/2500", "trail record held: chunk chain not terminated"),
    ("13/2800", "conflicting duplicate: trail position 13/2800"),
    ("13/2800", "conflicting duplicate: trail position 13/2800"),
    ("13/2900", "trail record: trail record for table SALES.OTHER, which is not a goldengate"),
    ("13/450", "trail record: Hdr-Ind is Z, not E: not a record written by Extract"),
    ("ogg_sales_orders/0/10", "message: conflicting duplicate: pos " + pos(12, 2300)),
    ("ogg_sales_orders/0/12", "message: value is not JSON"),
    ("ogg_sales_orders/0/13", "message: primary_keys [STATUS] differ from key_columns"),
    ("ogg_sales_orders/0/14", "message: column amount: 1x is not a valid decimal(10,2)"),
    ("ogg_sales_orders/0/15", "message: json record for table SALES.OTHER, which is not"),
    ("ogg_sales_orders/0/8", "message: op_type X is not I, U, D or T"),
    ("ogg_sales_orders/0/9", "message: pos 12A is not a trail position"),
    ("ogg_sales_orders/1/11", "message: conflicting duplicate: pos " + pos(12, 2300)),
]


def test_quarantine_reasons(spark: Any, goldengate_build: Any) -> None:
    rows = _rows(
        spark,
        f"select raw_key, reason from {SCHEMA}.fct_cdc_quarantine"
        " where source_system in ('ogg_trail', 'ogg_json', 'goldengate')",
    )
    assert len(rows) == len(QUARANTINED), rows
    for (raw_key, reason), (want_key, want_start) in zip(
        rows, sorted(QUARANTINED, key=repr), strict=True
    ):
        assert raw_key == want_key and reason.startswith(want_start), (raw_key, reason)
    reasons = dict(rows)
    assert reasons["13/200"].endswith("(inside a transaction; never applied)")
    assert reasons["13/450"].endswith("(between transactions; never applied)")
