"""The full_snapshot format (docs/full-snapshots.md), end to end on landed Parquet files in a
copy of the project scaffolded for four tables, four runs (about 2.5 minutes).

**fs_prices, worked by hand.** Columns sku (the key), title, price decimal(10,2), note, label
binary. Snapshot files (the name before '__', or before '.parquet', is the snapshot's time):

    run 1  s1  2024-01-01T00-00-00Z.parquet      A 10.00, B 20.00 (note ''), C 3.00 (note NULL)
           s3  20240103T000000__part-1/-2.parquet A 12.00, C (note 'line1' LF 'line2'), K 5.00
           latest.parquet                         X: 'latest' names no time
    run 2  s2  2024-01-02T00-00-00Z.parquet      A 11.00, C (note NULL), E 1.00  (late)
           20240101__again.parquet                s1 again under another name of its time
           20240103T000000__part-3.parquet        F: a part of s3, applied in run 1
           s4  2024-01-04T00-00-00Z.parquet      A 12.00, B 25.00, C and K as in s3
           2024-02-30.parquet                     Y: no such day
           s5  2024-01-05T00-00-00Z.parquet      no rows: the table was emptied

K's sku is `k,;'+"=\\<>`; A's note has quotes and a comma, K's is 50,000 characters; labels are
bytes (A 00 01, K ff, the others NULL). By the rule (per key, in snapshot order: first present
or present again I, values differ U, absent after present D):

- after run 1 (s1, s3): s1 I A, I B, I C (the baseline: is_snapshot); s3 U A, D B, U C, I K.
- after run 2 (s1, s2, s3, s4): s1 as before; s2 U A (11), D B, I E; s3 U A (12), U C (the
  note), I K, D E; s4 I B (25); s5 D A, D B, D C, D K (an empty snapshot ends every key).
  B's delete moves from s3 to s2 (s2 lacks it): the history must show B deleted over
  [s2, s4), never a delete at s3. s1 landed again changes nothing;
  F is quarantined (its snapshot was applied), as are X ('latest') and Y (no such day).

fs_prices is also bitemporal (docs/history-options.md, "Bitemporal history"): each run's changes
carry their
snapshots' staging time, R1 or R2, and the run-2 snapshots touch every key, so by the rule
(a version row of run 1's history that run 2's lacks is known over [R1, R2), one both hold
from R1 on, one only run 2's holds from R2 on):

    A  s1-s3 10, s3- 12: [R1, R2);  s1-s2 10, s2-s3 11, s3-s5 12, s5- deleted: [R2, -)
    B  s1-s3 20, s3- deleted: [R1, R2);  s1-s2 20, s2-s4 deleted, s4-s5 25, s5- deleted: [R2, -)
    C  s1-s3 3.00: [R1, -);  s3- (the note): [R1, R2);  s3-s5, s5- deleted: [R2, -)
    E  s2-s3 1.00, s3- deleted: [R2, -)
    K  s3-: [R1, R2);  s3-s5, s5- deleted: [R2, -)

So fs_prices_as_of('2024-01-02 12:00:00', R1) is A 10, B 20, C 3 (what run 1 said of that
day), and at 'latest' A 11, C 3, E 1 (B deleted at s2).

**fs_versions, worked by hand: snapshots named by version numbers** (`snapshot_id: version`),
fs_prices' columns:

    run 1  v1.parquet   A 10.00, B 20.00
           v10.parquet  A 12.00                 (10 comes after 2, not between 1 and 2)
           vX.parquet   X: 'vX' is not a version number
    run 2  v2.parquet   A 11.00, B 20.00, C 3.00  (late: between 1 and 10)

By the rule, after run 1: v1 I A, I B (the baseline); v10 U A, D B; current A 12. After run 2:
v1 as before; v2 U A (11), I C; v10 U A (12), D B, D C. A point is a version (digits):
as of 1 A 10, B 20; as of 2 and 9 A 11, B 20, C 3; as of 10 A 12. No version names a time,
so every change's effective_at is NULL.

**fs_one and fs_shuffled, against the table model.** The same random table (hostile texts,
NULL and '', binary, timestamps, key updates) snapshotted eight times a day apart
(cdc_simulator/full_snapshots.py): fs_one lands every snapshot in run 1 (one split in two
parts); fs_shuffled lands them in a random order over runs 1 to 3 (so most arrive late), and
one of run 1's again under another name in run 3. Both must give, at every snapshot time, half
a day after it and before the first, exactly the snapshot in force (`<table>_as_of`); equal
histories and change logs (batching must not matter); the last snapshot as current state; and
nothing quarantined. Run 3 is a `dbt build`: every data test of the three tables passes. Run 4,
with nothing new, changes no staged row, change, image, version or record of system time.
"""

from __future__ import annotations

import os
import random
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from state_check import Expectation, check, check_all

from cdc_simulator.full_snapshots import Snapshot, snapshots_of, state_at, write_snapshot
from cdc_simulator.project_copy import project_with_tables
from cdc_simulator.table_model import DOCUMENTS, TableSpec
from python_udfs.table_key import quote_key_value

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "full_snapshots"
RANDOM_SPEC = DOCUMENTS
ONE = TableSpec("fs_one", RANDOM_SPEC.columns, RANDOM_SPEC.key_columns)
SHUFFLED = TableSpec("fs_shuffled", RANDOM_SPEC.columns, RANDOM_SPEC.key_columns)
SNAPSHOTS = 8
SEED = int(os.environ.get("CDC_SNAPSHOT_SEED") or random.randrange(10**6))


def _declared(spec: TableSpec) -> dict[str, Any]:
    return {
        "source_system": "full_snapshot",
        "key_columns": list(spec.key_columns),
        "columns": {column.name: column.spark_type for column in spec.columns},
    }


# fs_prices' columns, which fs_versions lands too
PRICES_COLUMNS = {
    "sku": "string",
    "title": "string",
    "price": "decimal(10,2)",
    "note": "string",
    "label": "binary",
}
TABLES: dict[str, Any] = {
    "fs_prices": {
        "source_system": "full_snapshot",
        "source_schema": "SHOP",
        "bitemporal": True,
        "key_columns": ["sku"],
        "columns": PRICES_COLUMNS,
    },
    "fs_versions": {
        "source_system": "full_snapshot",
        "key_columns": ["sku"],
        "snapshot_id": "version",
        "columns": PRICES_COLUMNS,
    },
    "fs_one": _declared(ONE),
    "fs_shuffled": _declared(SHUFFLED),
}

PRICES_SCHEMA = pa.schema(
    [
        ("sku", pa.string()),
        ("title", pa.string()),
        ("price", pa.decimal128(10, 2)),
        ("note", pa.string()),
        ("label", pa.binary()),
    ]
)
K = "k,;'+\"=\\<>"
K_PK = "sku=" + quote_key_value(K)  # spec F.2: quoted, since it holds , ; ' + " = \\ < >
LONG_NOTE = "n" * 50_000
A = ("A", "Kettle", "10.00", 'say "hi", ok', b"\x00\x01")
B = ("B", "Toaster", "20.00", "", None)
C = ("C", "Mug", "3.00", None, None)


def _with(row: tuple[Any, ...], **values: Any) -> tuple[Any, ...]:
    names = [field.name for field in PRICES_SCHEMA]
    return tuple(values.get(name, value) for name, value in zip(names, row, strict=True))


A11, A12 = _with(A, price="11.00"), _with(A, price="12.00")
C_LINES = _with(C, note="line1\nline2")
KROW = (K, "O'Brien's pot", "5.00", LONG_NOTE, b"\xff")
E = ("E", "Cup", "1.00", None, None)
B25 = _with(B, price="25.00")


def _write_prices(path: Path, rows: list[tuple[Any, ...]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not rows:
        pq.write_table(PRICES_SCHEMA.empty_table(), path)
        return
    columns = list(zip(*rows, strict=True))
    arrays = [
        pa.array(
            [Decimal(value) for value in values] if field.name == "price" else list(values),
            type=field.type,
        )
        for values, field in zip(columns, PRICES_SCHEMA, strict=True)
    ]
    pq.write_table(pa.Table.from_arrays(arrays, schema=PRICES_SCHEMA), path)


def _land_versions(folder: Path, run: int) -> None:
    if run == 1:
        _write_prices(folder / "v1.parquet", [A, B])
        _write_prices(folder / "v10.parquet", [A12])
        _write_prices(folder / "vX.parquet", [("X", "Knife", "2.00", None, None)])
    else:
        _write_prices(folder / "v2.parquet", [A11, B, C])


def _versions_log(spark: Any) -> list[tuple[Any, ...]]:
    """(version, op, pk_string, is_snapshot, effective_at) of fs_versions' log, in order."""
    rows = spark.sql(
        "select order_key, op, pk_string, is_snapshot, effective_at"
        f" from {SCHEMA}.int_full_snapshot__changes_canonical"
        " where source_table = 'fs_versions' order by order_key, pk_string"
    ).collect()
    return [(int(row[0]), *row[1:]) for row in rows]


def _versions_as_of(spark: Any, point: str) -> list[tuple[Any, ...]]:
    return sorted(
        tuple(row)
        for row in spark.sql(
            f"select sku, price from {SCHEMA}.fs_versions_as_of('{point}')"
        ).collect()
    )


def _land_prices_run_1(folder: Path) -> None:
    _write_prices(folder / "2024-01-01T00-00-00Z.parquet", [A, B, C])
    _write_prices(folder / "20240103T000000__part-1.parquet", [A12, C_LINES])
    _write_prices(folder / "20240103T000000__part-2.parquet", [KROW])
    _write_prices(folder / "latest.parquet", [("X", "Knife", "2.00", None, None)])


def _land_prices_run_2(folder: Path) -> None:
    _write_prices(folder / "2024-01-02T00-00-00Z.parquet", [A11, C, E])
    _write_prices(folder / "20240101__again.parquet", [C, B, A])
    _write_prices(folder / "20240103T000000__part-3.parquet", [("F", "Fork", "1.00", None, None)])
    _write_prices(folder / "2024-01-04T00-00-00Z.parquet", [A12, B25, C_LINES, KROW])
    _write_prices(folder / "2024-02-30.parquet", [("Y", "Spoon", "1.00", None, None)])
    _write_prices(folder / "2024-01-05T00-00-00Z.parquet", [])


def _dbt_vars(root: Path) -> dict[str, Any]:
    return {
        "full_snapshot_landing": "files",
        "full_snapshot_landing_root": str(root),
        "full_snapshot_landing_format": "parquet",
        "cdc_tables": TABLES,
    }


def _changes(spark: Any, table: str) -> list[tuple[Any, ...]]:
    """(snapshot day, op, pk_string, is_snapshot) of a table's log, in order."""
    rows = spark.sql(
        "select order_key, op, pk_string, is_snapshot"
        f" from {SCHEMA}.int_full_snapshot__changes_canonical"
        f" where source_table = '{table}' order by order_key, pk_string"
    ).collect()
    return [(int(row[0][6:8]), row[1], row[2], row[3]) for row in rows]


def _versions(spark: Any, table: str, columns: str) -> list[tuple[Any, ...]]:
    return [
        tuple(row)
        for row in spark.sql(
            f"select pk_string, valid_from, valid_to, is_deleted, {columns}"
            f" from {SCHEMA}.dim_{table}_history order by pk_string, valid_from"
        ).collect()
    ]


def _by_day_and_key(changes: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Changes in the log's order (order_key, then pk_string)."""
    return sorted(changes, key=lambda change: (change[0], change[2]))


def _day(number: int) -> datetime:
    return datetime(2024, 1, number)


def _counts(spark: Any) -> dict[str, Any]:
    """Rows and their order-free hash per relation the runs write, for the no-op run."""
    counts = {}
    for relation in (
        *(f"stg_full_snapshot__{table}" for table in TABLES),
        "int_full_snapshot__changes_canonical",
        *(f"int_{table}__change_images" for table in TABLES),
        *(f"dim_{table}_history" for table in TABLES),
        "int_fs_prices__history_known",
    ):
        counts[relation] = tuple(
            spark.sql(
                f"select count(*), sum(hash(to_json(struct(*)))) from {SCHEMA}.{relation}"
            ).collect()[0]
        )
    return counts


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, spark: Any, run_dbt: Any) -> dict[str, Any]:
    """Four runs (docs/full-snapshots.md); what each test reads, recorded between them."""
    work = tmp_path_factory.mktemp("full_snapshots")
    project = project_with_tables(work / "project", TABLES)
    root = work / "landing"
    rng = random.Random(SEED)
    snapshots = snapshots_of(RANDOM_SPEC, seed=SEED, count=SNAPSHOTS, keys=24, changes_between=6)
    assert all(snapshot.rows for snapshot in snapshots), f"seed {SEED}: an empty snapshot"
    order = list(range(SNAPSHOTS))
    rng.shuffle(order)
    shuffled_runs = [order[:3], order[3:6], order[6:]]

    def land_random(run: int) -> None:
        if run == 0:
            for number, snapshot in enumerate(snapshots):
                write_snapshot(
                    root / "fs_one", RANDOM_SPEC, snapshot, parts=2 if number == 1 else 1, rng=rng
                )
        for number in shuffled_runs[run]:
            write_snapshot(root / "fs_shuffled", RANDOM_SPEC, snapshots[number], rng=rng)
        if run == 2:
            again = snapshots[shuffled_runs[0][0]]
            write_snapshot(
                root / "fs_shuffled",
                RANDOM_SPEC,
                again,
                rng=rng,
                stem=again.at.strftime("%Y%m%d%H%M%S") + "__landed_again",
            )

    _land_prices_run_1(root / "fs_prices")
    _land_versions(root / "fs_versions", 1)
    land_random(0)
    dbt_vars = _dbt_vars(root)
    run_dbt(["run"], schema=SCHEMA, vars=dbt_vars, project_dir=project)
    after_run_1 = {
        "changes": _changes(spark, "fs_prices"),
        "versions": _versions(spark, "fs_prices", "price"),
        "fs_versions": _versions_log(spark),
        "fs_versions_current": _versions_as_of(spark, "latest"),
    }
    _land_prices_run_2(root / "fs_prices")
    _land_versions(root / "fs_versions", 2)
    land_random(1)
    run_dbt(["run"], schema=SCHEMA, vars=dbt_vars, project_dir=project)
    land_random(2)
    build = run_dbt(
        ["build", "--exclude", "test_type:unit"],
        schema=SCHEMA,
        vars=dbt_vars,
        project_dir=project,
    )
    tested = {
        result.node.name: result.status
        for result in build.result.results
        if result.node.resource_type == "test"
    }
    before_noop = _counts(spark)
    run_dbt(["run"], schema=SCHEMA, vars=dbt_vars, project_dir=project)
    return {
        "after_run_1": after_run_1,
        "snapshots": snapshots,
        "tested": tested,
        "before_noop": before_noop,
        "after_noop": _counts(spark),
    }


def test_prices_after_run_1_follow_the_rule(built: dict[str, Any]) -> None:
    assert built["after_run_1"]["changes"] == _by_day_and_key(
        [
            (1, "I", "sku=A", True),
            (1, "I", "sku=B", True),
            (1, "I", "sku=C", True),
            (3, "U", "sku=A", False),
            (3, "D", "sku=B", False),
            (3, "U", "sku=C", False),
            (3, "I", K_PK, False),
        ]
    )


def test_a_late_snapshot_is_placed_in_order(spark: Any, built: dict[str, Any]) -> None:
    assert _changes(spark, "fs_prices") == _by_day_and_key(
        [
            (1, "I", "sku=A", True),
            (1, "I", "sku=B", True),
            (1, "I", "sku=C", True),
            (2, "U", "sku=A", False),
            (2, "D", "sku=B", False),
            (2, "I", "sku=E", False),
            (3, "U", "sku=A", False),
            (3, "U", "sku=C", False),
            (3, "D", "sku=E", False),
            (3, "I", K_PK, False),
            (4, "I", "sku=B", False),
            (5, "D", "sku=A", False),
            (5, "D", "sku=B", False),
            (5, "D", "sku=C", False),
            (5, "D", K_PK, False),
        ]
    )
    d = Decimal
    assert _versions(spark, "fs_prices", "price") == sorted(
        [
            ("sku=A", _day(1), _day(2), False, d("10.00")),
            ("sku=A", _day(2), _day(3), False, d("11.00")),
            ("sku=A", _day(3), _day(5), False, d("12.00")),
            ("sku=A", _day(5), None, True, d("12.00")),
            ("sku=B", _day(1), _day(2), False, d("20.00")),
            ("sku=B", _day(2), _day(4), True, d("20.00")),
            ("sku=B", _day(4), _day(5), False, d("25.00")),
            ("sku=B", _day(5), None, True, d("25.00")),
            ("sku=C", _day(1), _day(3), False, d("3.00")),
            ("sku=C", _day(3), _day(5), False, d("3.00")),
            ("sku=C", _day(5), None, True, d("3.00")),
            ("sku=E", _day(2), _day(3), False, d("1.00")),
            ("sku=E", _day(3), None, True, d("1.00")),
            (K_PK, _day(3), _day(5), False, d("5.00")),
            (K_PK, _day(5), None, True, d("5.00")),
        ]
    )
    # before run 2, B was deleted at s3
    assert ("sku=B", _day(3), None, True, d("20.00")) in built["after_run_1"]["versions"]


def test_a_late_snapshot_shows_in_system_time_from_when_it_landed(
    spark: Any, built: dict[str, Any]
) -> None:
    """fs_prices' bitemporal history and as-of (module docstring): run 1's versions that
    the late s2 replaced are known until run 2's load time, R2; the day between s2 and s3
    reads as run 1 said it at R1, as run 2 says it now."""
    times = [
        row[0]
        for row in spark.sql(
            f"select distinct loaded_at from {SCHEMA}.int_fs_prices__change_images order by 1"
        ).collect()
    ]
    assert len(times) == 2, times
    epoch = {times[0]: "R1", times[1]: "R2", None: None}
    got = sorted(
        (
            (row[0], row[1].day, row[2] and row[2].day, row[3], epoch[row[4]], epoch[row[5]])
            for row in spark.sql(
                "select pk_string, valid_from, valid_to, is_deleted, known_from, known_to"
                f" from {SCHEMA}.dim_fs_prices_history_bitemporal"
            ).collect()
        ),
        key=repr,
    )
    earlier, now = ("R1", "R2"), ("R2", None)
    assert got == sorted(
        [
            ("sku=A", 1, 3, False, *earlier),
            ("sku=A", 3, None, False, *earlier),
            ("sku=A", 1, 2, False, *now),
            ("sku=A", 2, 3, False, *now),
            ("sku=A", 3, 5, False, *now),
            ("sku=A", 5, None, True, *now),
            ("sku=B", 1, 3, False, *earlier),
            ("sku=B", 3, None, True, *earlier),
            ("sku=B", 1, 2, False, *now),
            ("sku=B", 2, 4, True, *now),
            ("sku=B", 4, 5, False, *now),
            ("sku=B", 5, None, True, *now),
            ("sku=C", 1, 3, False, "R1", None),
            ("sku=C", 3, None, False, *earlier),
            ("sku=C", 3, 5, False, *now),
            ("sku=C", 5, None, True, *now),
            ("sku=E", 2, 3, False, *now),
            ("sku=E", 3, None, True, *now),
            (K_PK, 3, None, False, *earlier),
            (K_PK, 3, 5, False, *now),
            (K_PK, 5, None, True, *now),
        ],
        key=repr,
    )

    def prices(known_at: str) -> list[tuple[Any, ...]]:
        return [
            tuple(row)
            for row in spark.sql(
                f"select sku, price from {SCHEMA}.fs_prices_as_of("
                f"'2024-01-02 12:00:00', '{known_at}') order by sku"
            ).collect()
        ]

    d = Decimal
    assert prices(str(times[0])) == [("A", d("10.00")), ("B", d("20.00")), ("C", d("3.00"))]
    assert prices("latest") == [("A", d("11.00")), ("C", d("3.00")), ("E", d("1.00"))]


def test_prices_values_survive_as_landed(spark: Any, built: dict[str, Any]) -> None:
    rows = {
        row[0]: tuple(row)
        for row in spark.sql(
            f"select sku, title, price, note, label from {SCHEMA}.fs_prices_as_of('2024-01-03')"
        ).collect()
    }
    assert set(rows) == {"A", "C", K}
    assert rows["A"] == ("A", "Kettle", Decimal("12.00"), 'say "hi", ok', bytearray(b"\x00\x01"))
    assert rows["C"][3] == "line1\nline2"
    assert rows[K] == (K, "O'Brien's pot", Decimal("5.00"), LONG_NOTE, bytearray(b"\xff"))
    # '' and NULL stay apart
    at_2 = {
        row[0]: row[1]
        for row in spark.sql(
            f"select sku, note from {SCHEMA}.fs_prices_as_of('2024-01-01 12:00:00')"
        ).collect()
    }
    assert at_2 == {"A": 'say "hi", ok', "B": "", "C": None}


def test_prices_quarantine_says_why(spark: Any, built: dict[str, Any]) -> None:
    reasons = sorted(
        tuple(row)
        for row in spark.sql(
            f"select raw_key, reason from {SCHEMA}.int_full_snapshot__rows_quarantined"
            " where source_table = 'fs_prices'"
        ).collect()
    )
    assert reasons == [
        ("2024-02-30:sku=Y", "snapshot id 2024-02-30 (from the file name) is not a time"),
        (
            "20240103T000000:sku=F",
            "snapshot 20240103T000000 was applied by an earlier run: a snapshot is applied"
            " whole, once, and rows landed for it later are kept out",
        ),
        ("latest:sku=X", "snapshot id latest (from the file name) is not a time"),
    ]


def test_version_numbered_snapshots_follow_their_numbers(spark: Any, built: dict[str, Any]) -> None:
    a, b, c = "sku=A", "sku=B", "sku=C"
    assert built["after_run_1"]["fs_versions"] == [
        (1, "I", a, True, None),
        (1, "I", b, True, None),
        (10, "U", a, False, None),
        (10, "D", b, False, None),
    ]
    assert built["after_run_1"]["fs_versions_current"] == [("A", Decimal("12.00"))]
    assert _versions_log(spark) == [
        (1, "I", a, True, None),
        (1, "I", b, True, None),
        (2, "U", a, False, None),
        (2, "I", c, False, None),
        (10, "U", a, False, None),
        (10, "D", b, False, None),
        (10, "D", c, False, None),
    ]
    b20, c3 = ("B", Decimal("20.00")), ("C", Decimal("3.00"))
    assert _versions_as_of(spark, "1") == [("A", Decimal("10.00")), b20]
    for point in ["2", "9"]:
        assert _versions_as_of(spark, point) == [("A", Decimal("11.00")), b20, c3]
    assert _versions_as_of(spark, "10") == [("A", Decimal("12.00"))]
    reasons = [
        tuple(row)
        for row in spark.sql(
            f"select raw_key, reason from {SCHEMA}.int_full_snapshot__rows_quarantined"
            " where source_table = 'fs_versions'"
        ).collect()
    ]
    assert reasons == [("vX:sku=X", "snapshot id vX (from the file name) is not a version number")]


def test_random_snapshots_answer_every_point(spark: Any, built: dict[str, Any]) -> None:
    snapshots: list[Snapshot] = built["snapshots"]
    points = [snapshots[0].at - timedelta(hours=1)]
    for snapshot in snapshots:
        points += [snapshot.at, snapshot.at + timedelta(hours=12)]
    failures: list[str] = []
    for spec in (ONE, SHUFFLED):
        expectations = [
            Expectation(
                f"{SCHEMA}.{spec.name}_as_of('{point.strftime('%Y-%m-%d %H:%M:%S')}')",
                state_at(snapshots, point),
                f"seed {SEED}, {point}",
            )
            for point in points
        ]
        failures += check_all(spark, RANDOM_SPEC, expectations)
        failures += check(
            spark,
            RANDOM_SPEC,
            f"{SCHEMA}.dim_{spec.name}_current",
            snapshots[-1].rows,
            f"seed {SEED}, current",
        )
    assert not failures, "\n".join(failures)


def test_batching_does_not_change_the_log_or_the_history(spark: Any, built: dict[str, Any]) -> None:
    def log(table: str) -> list[tuple[Any, ...]]:
        return [
            tuple(row)
            for row in spark.sql(
                "select order_key, op, pk_string, is_snapshot, to_json(before_image),"
                " to_json(after_image), changed_columns"
                f" from {SCHEMA}.int_full_snapshot__changes_canonical"
                f" where source_table = '{table}' order by order_key, pk_string"
            ).collect()
        ]

    columns = ", ".join(RANDOM_SPEC.column_names)
    assert log("fs_one") == log("fs_shuffled"), f"seed {SEED}"
    assert _versions(spark, "fs_one", columns) == _versions(spark, "fs_shuffled", columns), (
        f"seed {SEED}"
    )
    quarantined = spark.sql(
        f"select count(*) from {SCHEMA}.int_full_snapshot__rows_quarantined"
        " where source_table in ('fs_one', 'fs_shuffled')"
    ).collect()[0][0]
    assert quarantined == 0


def test_every_data_test_passes(built: dict[str, Any]) -> None:
    tested = built["tested"]
    assert len(tested) >= 25 and set(tested.values()) == {"pass"}, tested


def test_a_run_with_nothing_new_changes_nothing(built: dict[str, Any]) -> None:
    assert built["after_noop"] == built["before_noop"]
