"""The history options of var cdc_tables (docs/history-options.md), end to end on Qlik change
tables landed as Parquet, with expected versions worked out by hand below.

One landing holds the same changes under five table names, each with other options:

    h_plain  no option: every change opens a version
    h_track  track_history_except_columns: [last_seen]
    h_nulls  ignore_null_updates: [city]
    h_dedup  suppress_duplicate_updates: true
    h_all    all three

Columns (id, name, city, last_seen); key id. Changes by order (change_seq number):

    key 1: 10 I (Ann, Oslo, t1)   20 U (Ann, Oslo, t2)     30 U (Ann, Bergen, t3)
           40 U (Ann, NULL, t4)   45 U (Ann, Paris, t4b)*  50 U (Ann, NULL, t4)
           55 U (Ann, NULL, t4)   (the same values again: SET city = city)
    key 2: 60 I (Bob, Rome, t1)   65 U (Bob, Milan, t0)*   70 D (Bob, Milan, t0)

    * late: landed in batch 2, after a run over batch 1 (the rest).

A sixth table, h_trunc (no option), has its own changes: 10 I k1 A, 20 I k2 B, 30 TRUNCATE,
40 I k1 A2, and late (batch 2) 25 U k2 B2.

A seventh, h_moved (ignore_null_updates: [city], bitemporal), moves two keys: 10 I (1, Ann,
Oslo, t1); 20 U to key 3 (Ann, NULL, t2); and in batch 2, 30 U (3, Ann, NULL, t3). Key 3
continues key 1's state (spec F.5: one lineage), so its ignored NULL cities keep Oslo: versions
key 1 10-20, 20- K (deleted); key 3 20-30 (Oslo, t2), 30- (Oslo, t3); after batch 1, key 3 20-
(Oslo, t2). Then 40 I (5, Bob, Rome, t1) and 50 U to key 7 (Bob, NULL, t2), whose before-image
(the B row, which ends key 5 with a K image) lands in batch 2, after its U: after batch 1 key 5
is live (40-) and key 7 a row of its own (50-, NULL city: no state to continue); after batch 2
key 5 40-50, 50- K (deleted) and key 7 50- (Rome, t2). Batch 2 holds no image of key 7 and
none that is late for key 5, yet key 7's version must change: the run must rebuild the history
(history_plan: the other half of a key move was folded before), and the record of system time
must learn about key 7 at K2.

h_plain, h_all, h_trunc and h_moved also set `bitemporal` (docs/history-options.md, "Bitemporal
history"), which changes none of their histories: it records, beside them, when the warehouse held
each version row.
Each batch's images share one load time, so system time has two values per table, K1 (batch
1) and K2 (batch 2). The rule: a version row of the history after batch 1 is known from K1;
one the late changes replaced (the same start, another end, other absorbed values or another
change_loaded_at) is known until K2; a row the history holds only after batch 2 is known from
K2. So, by table (known range after the version; "-" open), with EXPECTED_BATCH_1 for the
histories after batch 1 (h_plain: every change its version, 40 open until the 50 after it;
h_trunc: k2 from 20 to the TRUNCATE):

    h_plain  key 1: 10-20, 20-30, 30-40, 50-55, 55- [K1, -); 40-50 [K1, K2);
                    40-45, 45-50 [K2, -)
             key 2: 60-70 [K1, K2); 60-65, 65-70 [K2, -); 70- D [K1, -)
    h_all    key 1: 10-30 [K1, -); 30- (Bergen, t4) [K1, K2); 30-45 (Bergen, t4), 45- (Paris,
                    t4) [K2, -) (45 absorbed 50 and 55; its change_loaded_at is K2)
             key 2: as h_plain's
    h_trunc  k1: 10-30, 30-40 T (A), 40- [K1, -) (no image in batch 2: not replayed)
             k2: 20-30, 30- T (B) [K1, K2); 20-25, 25-30, 30- T (B2) [K2, -) (the
                 TRUNCATE's deleted version shows the state it ends, which the late 25
                 changed)
    h_moved  key 1: 10-20, 20- K [K1, -) (no image in batch 2)
             key 3: 20- (Oslo, t2) [K1, K2); 20-30 (Oslo, t2), 30- (Oslo, t3) [K2, -): batch
                    2 touches key 3 alone, yet its replay must follow its lineage to key 1
             key 5: 40- [K1, K2); 40-50, 50- K [K2, -)
             key 7: 50- (NULL, t2) [K1, K2); 50- (Rome, t2) [K2, -)

`<table>_as_of(point, known_at)` then answers at K1 what the history said after batch 1
(h_plain at 45: city NULL, version 40; at 65: Bob in Rome) and at 'latest' what it says now
(Paris; key 2 Milan), equal to `<table>_as_of(point)` wherever the options shape no version.

What each option must give is written out per table in EXPECTED (after batch 2) and
EXPECTED_BATCH_1 (the absorbing tables after batch 1). Worked by hand:

- h_track: 20 changes only last_seen, so it overwrites version 10 in place (last_seen t2);
  55 changes nothing tracked, so it overwrites 50. After batch 1, 50 and 55 were absorbed by
  version 40 ((NULL, t4) three times): the late 45 lies after the version's start but before
  its absorbed states, so the run must rebuild (history_plan), not append after them.
- h_nulls: 40's NULL city keeps Bergen; the late 45 sets Paris, so 50 and 55 (NULL again)
  keep Paris: the states after a late change re-coalesce. Every change opens a version.
- h_dedup: only 55 equals its predecessor in every column: absorbed by 50.
- h_all: states Oslo t1, Oslo t2, Bergen t3, Bergen t4, Paris t4b, Paris t4, Paris t4: versions
  10 (Oslo, t2), 30 (Bergen, t4), 45 (Paris, t4).
- key 2 everywhere (tombstone): 65 lands after the delete at 70 was built, and is older: the
  key stays deleted (a version 65 (Milan) between, no live row).
- h_trunc: the TRUNCATE at 30 ends both keys; each key's deleted version (change_op T)
  shows the state it ends, its key included (spec F.5: a tombstone keeps the last state), as
  a delete's does; 40 re-creates k1; the late 25 (before the TRUNCATE) adds a version of k2
  before 30, does not resurrect it, and changes what k2's T version shows (B2, not B).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from cdc_simulator.project_copy import project_with_tables
from cdc_simulator.qlik_ct import (
    HEADER_COUNT,
    OPERATIONS,
    encode_mask,
    mask_length,
    write_parquet,
)
from cdc_simulator.table_model import UTC, ColumnSpec, TableSpec

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "history_options"
COLUMNS = (
    ColumnSpec("id", "int32"),
    ColumnSpec("name", "string"),
    ColumnSpec("city", "string", nullable=True),
    ColumnSpec("last_seen", "string", nullable=True),
)
OPTIONS: dict[str, dict[str, Any]] = {
    "h_plain": {"bitemporal": True},
    "h_track": {"track_history_except_columns": ["last_seen"]},
    "h_nulls": {"ignore_null_updates": ["city"]},
    "h_dedup": {"suppress_duplicate_updates": True},
    "h_all": {
        "track_history_except_columns": ["last_seen"],
        "ignore_null_updates": ["city"],
        "suppress_duplicate_updates": True,
        "bitemporal": True,
    },
    "h_trunc": {"bitemporal": True},
    "h_moved": {"ignore_null_updates": ["city"], "bitemporal": True},
}
BITEMPORAL = sorted(name for name, options in OPTIONS.items() if options.get("bitemporal"))
SPECS = {name: TableSpec(name, COLUMNS, ("id",)) for name in OPTIONS}

Row = tuple[object, ...]
# a version: (valid_from, valid_to, is_deleted, change_op, id, name, city, last_seen), the
# order keys given as change numbers (None: open)
Version = tuple[object, ...]


def change_seq(number: int, table: str) -> str:
    """A 35-digit Qlik change_seq (spec A.3): commit time, then the change number. Replicate
    numbers every change of a task once, so each table's changes get their own numbers:
    number * 100 + the table's place in OPTIONS (`number` reads it back)."""
    return "2024030110000000" + str(number * 100 + list(OPTIONS).index(table)).zfill(19)


def ct_rows(
    spec: TableSpec, number: int, op: str, after: Row, before: Row | None = None
) -> list[Row]:
    """The change-table rows of one change: [I], [B, U], [D] or a TRUNCATE row. An update's
    mask marks the columns whose values differ, or city when none does (SET city = city)."""
    timestamp = datetime(2024, 3, 1, 10, 0, number % 60, tzinfo=UTC)
    seq = change_seq(number, spec.name)
    header = (f"lsn:{number}", OPERATIONS.get(op, "TRUNCATE"), f"tx{number}", timestamp)
    if op == "T":
        return [(seq, None, None, *header, *([None] * len(spec.columns)))]
    if op == "U":
        assert before is not None
        positions = [
            i for i, (old, new) in enumerate(zip(before, after, strict=True)) if old != new
        ]
        positions = positions or [2]
    elif op == "I":
        positions = list(range(len(spec.columns)))
    else:
        positions = list(spec.key_positions)
    mask = encode_mask([HEADER_COUNT + p for p in positions], trim=False, length=mask_length(spec))
    row = (seq, op, mask, *header, *after)
    if op == "U":
        before_header = (header[0], OPERATIONS["B"], *header[2:])
        return [(seq, "B", b"", *before_header, *before), row]  # type: ignore[misc]
    return [row]


ANN = {
    10: ("I", (1, "Ann", "Oslo", "t1"), None),
    20: ("U", (1, "Ann", "Oslo", "t2"), (1, "Ann", "Oslo", "t1")),
    30: ("U", (1, "Ann", "Bergen", "t3"), (1, "Ann", "Oslo", "t2")),
    40: ("U", (1, "Ann", None, "t4"), (1, "Ann", "Bergen", "t3")),
    45: ("U", (1, "Ann", "Paris", "t4b"), (1, "Ann", None, "t4")),
    50: ("U", (1, "Ann", None, "t4"), (1, "Ann", "Paris", "t4b")),
    55: ("U", (1, "Ann", None, "t4"), (1, "Ann", None, "t4")),
    60: ("I", (2, "Bob", "Rome", "t1"), None),
    65: ("U", (2, "Bob", "Milan", "t0"), (2, "Bob", "Rome", "t1")),
    70: ("D", (2, "Bob", "Milan", "t0"), None),
}
TRUNC = {
    10: ("I", (1, "A", None, None), None),
    20: ("I", (2, "B", None, None), None),
    25: ("U", (2, "B2", None, None), (2, "B", None, None)),
    30: ("T", (), None),
    40: ("I", (1, "A2", None, None), None),
}
MOVED = {
    10: ("I", (1, "Ann", "Oslo", "t1"), None),
    20: ("U", (3, "Ann", None, "t2"), (1, "Ann", "Oslo", "t1")),
    30: ("U", (3, "Ann", None, "t3"), (3, "Ann", None, "t2")),
    40: ("I", (5, "Bob", "Rome", "t1"), None),
    50: ("U", (7, "Bob", None, "t2"), (5, "Bob", "Rome", "t1")),
}
LATE = {45, 65, 25}
# each table's changes and which of them land late (in batch 2)
CHANGES: dict[str, tuple[dict[int, Any], set[int]]] = {
    "h_trunc": (TRUNC, LATE),
    "h_moved": (MOVED, {30}),
}
# changes whose before-image (B row) lands in batch 2, after their U row
LATE_BEFORE_IMAGES: dict[str, set[int]] = {"h_moved": {50}}


def batch(late: bool) -> dict[str, list[Row]]:
    """Every table's change-table rows of batch 1 (late False) or 2 (the late changes and
    the late before-images)."""
    rows: dict[str, list[Row]] = {}
    for name, spec in SPECS.items():
        changes, late_numbers = CHANGES.get(name, (ANN, LATE))
        late_before = LATE_BEFORE_IMAGES.get(name, set())
        rows[name] = [
            row
            for number, (op, after, before) in sorted(changes.items())
            for row in ct_rows(spec, number, op, after, before)
            if (number in late_numbers or (row[1] == "B" and number in late_before)) == late
        ]
    return rows


TABLES = {
    name: {"source_system": "qlik_ct", "key_columns": ["id"], **copy.deepcopy(options)}
    for name, options in OPTIONS.items()
}


def dbt_vars(root: Path) -> dict[str, object]:
    return {
        "qlik_ct_landing": "files",
        "qlik_ct_landing_root": str(root),
        "qlik_ct_landing_format": "parquet",
        "cdc_tables": TABLES,
    }


def v(start: int, end: int | None, op: str, *values: object, deleted: bool = False) -> Version:
    return (start, end, deleted, op, *values)


KEY_2 = [
    v(60, 65, "I", 2, "Bob", "Rome", "t1"),
    v(65, 70, "U", 2, "Bob", "Milan", "t0"),
    v(70, None, "D", 2, "Bob", "Milan", "t0", deleted=True),
]
EXPECTED: dict[str, list[Version]] = {
    "h_plain": [
        v(10, 20, "I", 1, "Ann", "Oslo", "t1"),
        v(20, 30, "U", 1, "Ann", "Oslo", "t2"),
        v(30, 40, "U", 1, "Ann", "Bergen", "t3"),
        v(40, 45, "U", 1, "Ann", None, "t4"),
        v(45, 50, "U", 1, "Ann", "Paris", "t4b"),
        v(50, 55, "U", 1, "Ann", None, "t4"),
        v(55, None, "U", 1, "Ann", None, "t4"),
        *KEY_2,
    ],
    "h_track": [
        v(10, 30, "I", 1, "Ann", "Oslo", "t2"),
        v(30, 40, "U", 1, "Ann", "Bergen", "t3"),
        v(40, 45, "U", 1, "Ann", None, "t4"),
        v(45, 50, "U", 1, "Ann", "Paris", "t4b"),
        v(50, None, "U", 1, "Ann", None, "t4"),
        *KEY_2,
    ],
    "h_nulls": [
        v(10, 20, "I", 1, "Ann", "Oslo", "t1"),
        v(20, 30, "U", 1, "Ann", "Oslo", "t2"),
        v(30, 40, "U", 1, "Ann", "Bergen", "t3"),
        v(40, 45, "U", 1, "Ann", "Bergen", "t4"),
        v(45, 50, "U", 1, "Ann", "Paris", "t4b"),
        v(50, 55, "U", 1, "Ann", "Paris", "t4"),
        v(55, None, "U", 1, "Ann", "Paris", "t4"),
        *KEY_2,
    ],
    "h_dedup": [
        v(10, 20, "I", 1, "Ann", "Oslo", "t1"),
        v(20, 30, "U", 1, "Ann", "Oslo", "t2"),
        v(30, 40, "U", 1, "Ann", "Bergen", "t3"),
        v(40, 45, "U", 1, "Ann", None, "t4"),
        v(45, 50, "U", 1, "Ann", "Paris", "t4b"),
        v(50, None, "U", 1, "Ann", None, "t4"),
        *KEY_2,
    ],
    "h_all": [
        v(10, 30, "I", 1, "Ann", "Oslo", "t2"),
        v(30, 45, "U", 1, "Ann", "Bergen", "t4"),
        v(45, None, "U", 1, "Ann", "Paris", "t4"),
        *KEY_2,
    ],
    "h_trunc": [
        v(10, 30, "I", 1, "A", None, None),
        v(30, 40, "T", 1, "A", None, None, deleted=True),
        v(40, None, "I", 1, "A2", None, None),
        v(20, 25, "I", 2, "B", None, None),
        v(25, 30, "U", 2, "B2", None, None),
        v(30, None, "T", 2, "B2", None, None, deleted=True),
    ],
    "h_moved": [
        v(10, 20, "I", 1, "Ann", "Oslo", "t1"),
        v(20, None, "K", 1, "Ann", "Oslo", "t1", deleted=True),
        v(20, 30, "U", 3, "Ann", "Oslo", "t2"),
        v(30, None, "U", 3, "Ann", "Oslo", "t3"),
        v(40, 50, "I", 5, "Bob", "Rome", "t1"),
        v(50, None, "K", 5, "Bob", "Rome", "t1", deleted=True),
        v(50, None, "U", 7, "Bob", "Rome", "t2"),
    ],
}
EXPECTED_BATCH_1: dict[str, list[Version]] = {
    "h_plain": [
        v(10, 20, "I", 1, "Ann", "Oslo", "t1"),
        v(20, 30, "U", 1, "Ann", "Oslo", "t2"),
        v(30, 40, "U", 1, "Ann", "Bergen", "t3"),
        v(40, 50, "U", 1, "Ann", None, "t4"),
        v(50, 55, "U", 1, "Ann", None, "t4"),
        v(55, None, "U", 1, "Ann", None, "t4"),
        v(60, 70, "I", 2, "Bob", "Rome", "t1"),
        v(70, None, "D", 2, "Bob", "Milan", "t0", deleted=True),
    ],
    "h_trunc": [
        v(10, 30, "I", 1, "A", None, None),
        v(30, 40, "T", 1, "A", None, None, deleted=True),
        v(40, None, "I", 1, "A2", None, None),
        v(20, 30, "I", 2, "B", None, None),
        v(30, None, "T", 2, "B", None, None, deleted=True),
    ],
    "h_track": [
        v(10, 30, "I", 1, "Ann", "Oslo", "t2"),
        v(30, 40, "U", 1, "Ann", "Bergen", "t3"),
        v(40, None, "U", 1, "Ann", None, "t4"),
        v(60, 70, "I", 2, "Bob", "Rome", "t1"),
        v(70, None, "D", 2, "Bob", "Milan", "t0", deleted=True),
    ],
    "h_all": [
        v(10, 30, "I", 1, "Ann", "Oslo", "t2"),
        v(30, None, "U", 1, "Ann", "Bergen", "t4"),
        v(60, 70, "I", 2, "Bob", "Rome", "t1"),
        v(70, None, "D", 2, "Bob", "Milan", "t0", deleted=True),
    ],
}


# a version row with its known range in system time: 1 is K1, 2 is K2, None open
BITEMPORAL_EXPECTED: dict[str, list[tuple[object, ...]]] = {
    "h_plain": [
        (*v(10, 20, "I", 1, "Ann", "Oslo", "t1"), 1, None),
        (*v(20, 30, "U", 1, "Ann", "Oslo", "t2"), 1, None),
        (*v(30, 40, "U", 1, "Ann", "Bergen", "t3"), 1, None),
        (*v(40, 45, "U", 1, "Ann", None, "t4"), 2, None),
        (*v(40, 50, "U", 1, "Ann", None, "t4"), 1, 2),
        (*v(45, 50, "U", 1, "Ann", "Paris", "t4b"), 2, None),
        (*v(50, 55, "U", 1, "Ann", None, "t4"), 1, None),
        (*v(55, None, "U", 1, "Ann", None, "t4"), 1, None),
        (*v(60, 65, "I", 2, "Bob", "Rome", "t1"), 2, None),
        (*v(60, 70, "I", 2, "Bob", "Rome", "t1"), 1, 2),
        (*v(65, 70, "U", 2, "Bob", "Milan", "t0"), 2, None),
        (*v(70, None, "D", 2, "Bob", "Milan", "t0", deleted=True), 1, None),
    ],
    "h_all": [
        (*v(10, 30, "I", 1, "Ann", "Oslo", "t2"), 1, None),
        (*v(30, 45, "U", 1, "Ann", "Bergen", "t4"), 2, None),
        (*v(30, None, "U", 1, "Ann", "Bergen", "t4"), 1, 2),
        (*v(45, None, "U", 1, "Ann", "Paris", "t4"), 2, None),
        (*v(60, 65, "I", 2, "Bob", "Rome", "t1"), 2, None),
        (*v(60, 70, "I", 2, "Bob", "Rome", "t1"), 1, 2),
        (*v(65, 70, "U", 2, "Bob", "Milan", "t0"), 2, None),
        (*v(70, None, "D", 2, "Bob", "Milan", "t0", deleted=True), 1, None),
    ],
    "h_trunc": [
        (*v(10, 30, "I", 1, "A", None, None), 1, None),
        (*v(30, 40, "T", 1, "A", None, None, deleted=True), 1, None),
        (*v(40, None, "I", 1, "A2", None, None), 1, None),
        (*v(20, 25, "I", 2, "B", None, None), 2, None),
        (*v(20, 30, "I", 2, "B", None, None), 1, 2),
        (*v(25, 30, "U", 2, "B2", None, None), 2, None),
        (*v(30, None, "T", 2, "B", None, None, deleted=True), 1, 2),
        (*v(30, None, "T", 2, "B2", None, None, deleted=True), 2, None),
    ],
    "h_moved": [
        (*v(10, 20, "I", 1, "Ann", "Oslo", "t1"), 1, None),
        (*v(20, None, "K", 1, "Ann", "Oslo", "t1", deleted=True), 1, None),
        (*v(20, None, "U", 3, "Ann", "Oslo", "t2"), 1, 2),
        (*v(20, 30, "U", 3, "Ann", "Oslo", "t2"), 2, None),
        (*v(30, None, "U", 3, "Ann", "Oslo", "t3"), 2, None),
        (*v(40, None, "I", 5, "Bob", "Rome", "t1"), 1, 2),
        (*v(40, 50, "I", 5, "Bob", "Rome", "t1"), 2, None),
        (*v(50, None, "K", 5, "Bob", "Rome", "t1", deleted=True), 2, None),
        (*v(50, None, "U", 7, "Bob", None, "t2"), 1, 2),
        (*v(50, None, "U", 7, "Bob", "Rome", "t2"), 2, None),
    ],
}


def number(order_key: str | None) -> int | None:
    return None if order_key is None else int(order_key[-19:]) // 100


def versions(spark: Any, table: str) -> list[Version]:
    """dim_<table>_history as Version tuples, by key then start."""
    rows = spark.sql(
        f"select pk_string, valid_from_order_key, valid_to_order_key, is_deleted, change_op,"
        f" id, name, city, last_seen from {SCHEMA}.dim_{table}_history"
        " order by pk_string, valid_from_order_key"
    ).collect()
    return [(number(row[1]), number(row[2]), row[3], row[4], *row[5:]) for row in rows]


def column(spark: Any, query: str) -> list[Sequence[object]]:
    return [tuple(row) for row in spark.sql(query).collect()]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, spark: Any, run_dbt: Any) -> dict[str, Any]:
    """Batch 1, `dbt run`, the histories of the absorbing tables; batch 2, `dbt build`."""
    work = tmp_path_factory.mktemp("history_options")
    project = project_with_tables(work / "project", TABLES)
    root = work / "landing"
    tables = list(SPECS.values())
    write_parquet(root, batch(late=False), {name: {} for name in SPECS}, tables=tables)
    run_dbt(["run"], schema=SCHEMA, vars=dbt_vars(root), project_dir=project)
    after_batch_1 = {table: versions(spark, table) for table in EXPECTED_BATCH_1}
    write_parquet(root, batch(late=True), tables=tables)
    run_dbt(
        ["build", "--exclude", "test_type:unit"],
        schema=SCHEMA,
        vars=dbt_vars(root),
        project_dir=project,
    )
    recorded = spark.sql(f"select count(*) from {SCHEMA}.int_h_plain__history_known").first()[0]
    # the record of system time is never rebuilt: --full-refresh with nothing new adds nothing
    run_dbt(
        ["run", "--full-refresh", "--select", "int_h_plain__history_known"],
        schema=SCHEMA,
        vars=dbt_vars(root),
        project_dir=project,
    )
    return {"after_batch_1": after_batch_1, "recorded": recorded, "project": project}


@pytest.mark.parametrize("table", sorted(EXPECTED_BATCH_1))
def test_states_that_change_no_tracked_column_overwrite_the_open_version(
    built: dict[str, Any], table: str
) -> None:
    assert built["after_batch_1"][table] == EXPECTED_BATCH_1[table]


@pytest.mark.parametrize("table", sorted(EXPECTED))
def test_history_after_late_changes_is_worked_out_by_hand(
    built: dict[str, Any], spark: Any, table: str
) -> None:
    assert versions(spark, table) == EXPECTED[table]


def test_nothing_is_quarantined(built: dict[str, Any], spark: Any) -> None:
    """Every hand-written change-table row is valid (before-images included: a key move needs
    its B row to end the old key)."""
    reasons = column(
        spark,
        f"select source_table, reason from {SCHEMA}.fct_cdc_quarantine order by 1, 2",
    )
    assert reasons == []


def test_current_state_follows_the_options(built: dict[str, Any], spark: Any) -> None:
    current = {
        table: column(
            spark, f"select id, city, last_seen from {SCHEMA}.dim_{table}_current order by id"
        )
        for table in SPECS
    }
    assert current == {
        "h_plain": [(1, None, "t4")],
        "h_track": [(1, None, "t4")],
        "h_nulls": [(1, "Paris", "t4")],
        "h_dedup": [(1, None, "t4")],
        "h_all": [(1, "Paris", "t4")],
        "h_trunc": [(1, None, None)],
        "h_moved": [(3, "Oslo", "t3"), (7, "Rome", "t2")],
    }


def load_times(spark: Any, table: str) -> list[Any]:
    """The table's system times, oldest first: its images' load times (K1, K2)."""
    rows = spark.sql(
        f"select distinct loaded_at from {SCHEMA}.int_{table}__change_images order by 1"
    ).collect()
    return [row[0] for row in rows]


@pytest.mark.parametrize("table", BITEMPORAL)
def test_bitemporal_history_is_worked_out_by_hand(
    built: dict[str, Any], spark: Any, table: str
) -> None:
    """Every version row the history held, with its known range in system time (module
    docstring): K1 and K2 are the two batches' load times. The rows known now are the
    history's."""
    times = load_times(spark, table)
    assert len(times) == 2, times
    epoch = {times[0]: 1, times[1]: 2, None: None}
    rows = spark.sql(
        f"select valid_from_order_key, valid_to_order_key, is_deleted, change_op,"
        f" id, name, city, last_seen, known_from, known_to"
        f" from {SCHEMA}.dim_{table}_history_bitemporal"
        " order by pk_string, valid_from_order_key, known_from"
    ).collect()
    got = [
        (number(row[0]), number(row[1]), *row[2:8], epoch[row[8]], epoch[row[9]]) for row in rows
    ]

    def order(row: tuple[object, ...]) -> tuple[str, str]:
        return (repr(row[4]), repr(row[:2] + row[8:]))

    assert sorted(got, key=order) == sorted(BITEMPORAL_EXPECTED[table], key=order)
    now = spark.sql(
        f"select count(*) from {SCHEMA}.dim_{table}_history_bitemporal where is_known_now"
    ).first()[0]
    assert now == len(EXPECTED[table])


def test_bitemporal_models_are_documented(built: dict[str, Any], spark: Any) -> None:
    """Every column the bitemporal models have is described in their generated YAML (the
    sample build's docs test covers the shipped tables, none of which is bitemporal). The
    data columns aside: a Qlik table that declares no columns has only its key listed in a
    project copy's YAML (the scaffold reads no DDL), as in every other model of the copy."""
    manifest = json.loads((built["project"] / "target" / "manifest.json").read_text())
    nodes = {node["name"]: node for node in manifest["nodes"].values()}
    for table in BITEMPORAL:
        for model in (f"int_{table}__history_known", f"dim_{table}_history_bitemporal"):
            node = nodes[model]
            assert node["description"].strip(), model
            described = {
                name.lower()
                for name, column in node["columns"].items()
                if column["description"].strip()
            }
            built_columns = {name.lower() for name in spark.table(f"{SCHEMA}.{model}").columns} - {
                "name",
                "city",
                "last_seen",
            }
            assert built_columns <= described, f"{model}: {sorted(built_columns - described)}"


def test_a_rerun_and_a_full_refresh_keep_the_record(built: dict[str, Any], spark: Any) -> None:
    """The record of system time is what the warehouse said: a --full-refresh run of it with
    nothing new loaded neither rebuilds it (its rows would all be learned anew) nor adds a
    row."""
    rows = spark.sql(f"select count(*) from {SCHEMA}.int_h_plain__history_known").first()[0]
    assert rows == built["recorded"] == 12 + 2  # each of 12 facts learned, 2 given up
    learned_at_k1 = spark.sql(
        f"select count(*) from {SCHEMA}.dim_h_plain_history_bitemporal"
        " where known_from = (select min(known_at) from"
        f" {SCHEMA}.int_h_plain__history_known)"
    ).first()[0]
    assert learned_at_k1 == 8


def test_point_in_time_as_known_then(built: dict[str, Any], spark: Any) -> None:
    """<table>_as_of(point, known_at): at K1 what the history said after batch 1, at
    'latest' (or any time after K2) what it says now, before K1 nothing; the same as
    <table>_as_of(point) where no option shapes versions; a known_at that names no time
    stops the query."""
    times = {table: [str(time) for time in load_times(spark, table)] for table in BITEMPORAL}

    def at(table: str, point: int, known_at: str | None = None) -> list[Sequence[object]]:
        """The table's rows at change `point`, as known at `known_at` (K1, K2: the table's
        own load times; its staging ran apart from the other tables')."""
        if known_at in ("K1", "K2"):
            known_at = times[table][int(known_at[1]) - 1]
        arguments = f"'{change_seq(point, table)}'" + (f", '{known_at}'" if known_at else "")
        return column(
            spark,
            f"select id, name, city, last_seen, last_op from {SCHEMA}.{table}_as_of({arguments})"
            " order by id",
        )

    assert at("h_plain", 45, "K1") == [(1, "Ann", None, "t4", "U")]
    assert at("h_plain", 45, "K2") == [(1, "Ann", "Paris", "t4b", "U")]
    assert at("h_plain", 65, "K1") == [(1, "Ann", None, "t4", "U"), (2, "Bob", "Rome", "t1", "I")]
    assert at("h_plain", 65, "latest") == [
        (1, "Ann", None, "t4", "U"),
        (2, "Bob", "Milan", "t0", "U"),
    ]
    assert at("h_plain", 65, "2000-01-01") == []
    assert at("h_all", 65, "K1") == [(1, "Ann", "Bergen", "t4", "U"), (2, "Bob", "Rome", "t1", "I")]
    assert at("h_trunc", 26, "K1") == [(1, "A", None, None, "I"), (2, "B", None, None, "I")]
    assert at("h_trunc", 26, "K2") == [(1, "A", None, None, "I"), (2, "B2", None, None, "U")]
    # h_moved as known at K1: key 5 still live, key 7 without key 5's city
    assert at("h_moved", 55, "K1") == [
        (3, "Ann", "Oslo", "t2", "U"),
        (5, "Bob", "Rome", "t1", "I"),
        (7, "Bob", None, "t2", "U"),
    ]
    assert at("h_moved", 55, "K2") == [(3, "Ann", "Oslo", "t3", "U"), (7, "Bob", "Rome", "t2", "U")]
    for table in ("h_plain", "h_trunc", "h_moved"):
        for point in (10, 25, 35, 45, 55, 65, 75):
            assert at(table, point, "latest") == at(table, point), (table, point)
    with pytest.raises(Exception, match="known_at must be latest or a timestamp, got yesterday"):
        at("h_plain", 45, "yesterday")


def test_point_in_time_keeps_a_value_that_a_null_update_ignores(
    built: dict[str, Any], spark: Any
) -> None:
    """<table>_as_of reads the images: a NULL update of an ignored column keeps the value at
    every point; the tracking options shape versions, not the state at a point."""

    def at(table: str, number: int, column_name: str) -> list[Sequence[object]]:
        point = change_seq(number, table)
        return column(spark, f"select {column_name} from {SCHEMA}.{table}_as_of('{point}')")

    assert at("h_nulls", 40, "city") == [("Bergen",)]
    assert at("h_plain", 40, "city") == [(None,)]
    assert at("h_track", 20, "last_seen") == [("t2",)]
