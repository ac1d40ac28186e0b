"""`duplicate_resolution: latest_load` (docs/qlik-change-tables.md, "Duplicate resolution"), end to
end on Qlik change tables landed as Parquet files over three runs, with the expected rows worked out
by hand below. The log and the quarantine are written one table a statement
(cdc_tables_per_statement 1), so every run after the first also writes a later batch into the
existing log.

Two tables get the same landed rows: d_latest sets `duplicate_resolution: latest_load`, d_plain
sets nothing (the default, `quarantine`: what every table did before the option). Columns
(id, name); key id. Changes by change_seq number; a file's landing time is its modification
time, set here (file A before file B before C before D):

    run 1, file A:  10 I (1, Ann)   20 I (2, Bob)   30 B (1, Ann) U (1, Anna)
                    40 I (4, Dan)   40 I (4, Dave)          (one file: the same landing time)
                    50 I (5, Eve)
    run 1, file B:  10 I (1, Ann)   (an exact copy: one delivery, nothing to resolve)
                    20 I (2, Bobby)                          (B landed after A)
    run 2, file C:  30 B (1, Ann) U (1, Annie)   (the B an exact copy, not staged again)
    run 3, file D:  20 I (7, Bobby)              (the same position, another key)
                    50 I (5, Eva)   50 I (5, Evi)   (one file, both unlike run 1's Eve)
                    60 I (6, Fay)

The rule (latest_load): of rows with one change_seq and change_oper and other content, the one
landed last is kept, flagged; the others are quarantined as superseded. Within a run "landed
last" is the newest file modification time; a row staged by a later run was landed after every
row an earlier run staged. A tie for the latest landing time decides nothing: all are
quarantined, as without the option. So for d_latest:

- 10: one change (the copy collapses).
- 20: in run 1 B's Bobby is kept (`latest_load_kept`) and A's Bob superseded; run 3's key 7
  supersedes run 1's Bobby (`supersedes_staged`): 20 inserts key 7, key 2 never existed.
  Only the position is shared, not the key: the history must drop key 2, which run 3 stages
  nothing for (history_plan rebuilds when an image lands where a version starts or ends).
- 30: run 2's Annie supersedes run 1's Anna (`supersedes_staged`); the before-image (Ann)
  is the one of run 1, its copy not staged again.
- 40: Dan and Dave landed in one file: both quarantined, nothing at 40.
- 50: run 3's Eva and Evi tie (one file), so neither is kept; but a later run staged rows
  at 50, which supersede run 1's Eve all the same: the latest load decides, and it applies
  nothing. Key 5 is gone (`supersedes_staged` flags both, so the images are built again).
- 60: Fay.

    after run 1: current {1: Anna, 2: Bobby, 5: Eve}
    after run 3: current {1: Annie, 6: Fay, 7: Bobby}
    history after run 3: key 1 10-30 I Ann, 30- U Annie; key 6 60- I Fay; key 7 20- I Bobby

d_plain (quarantine): 20 and 40 quarantined in run 1 (two rows each), run 2's Annie, run 3's
key 7 and run 3's Eva and Evi (also conflicting with each other) quarantined as late
conflicting duplicates, run 1's Anna and Eve kept:

    after run 3: current {1: Anna, 5: Eve, 6: Fay}

No row is dropped: every landed row but the collapsed copies is in the change log or in the
quarantine, with its reason.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from cdc_simulator.project_copy import project_with_tables
from cdc_simulator.qlik_ct import change_rows, write_parquet
from cdc_simulator.table_model import UTC, Change, ColumnSpec, TableSpec

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "duplicate_resolution"
COLUMNS = (ColumnSpec("id", "int32"), ColumnSpec("name", "string"))
TABLES: dict[str, dict[str, Any]] = {
    "d_latest": {
        "source_system": "qlik_ct",
        "key_columns": ["id"],
        "duplicate_resolution": "latest_load",
    },
    "d_plain": {"source_system": "qlik_ct", "key_columns": ["id"]},
}
SPECS = {name: TableSpec(name, COLUMNS, ("id",)) for name in TABLES}
Row = tuple[object, ...]

SUPERSEDED_IN_RUN = (
    "superseded: a row with this change_seq and change_oper and other content landed later "
    "(duplicate_resolution latest_load)"
)
SUPERSEDED_LATER_RUN = (
    "superseded: a later run staged a row with this change_seq and change_oper and other "
    "content (duplicate_resolution latest_load)"
)
TIED = (
    "conflicting duplicate: another row has this change_seq and change_oper and landed at the "
    "same time, so none is the latest load"
)
CONFLICT = "conflicting duplicate: another row has this change_seq and change_oper"
LATE_CONFLICT = (
    "conflicting late duplicate: a row with this change_seq and change_oper was staged by an "
    "earlier run with other content"
)


def change_seq(number: int, table: str) -> str:
    """A 35-digit change_seq (spec A.3): the commit time, then the change number. Replicate
    numbers every change of a task once, so each table's changes get their own numbers:
    number * 100 + the table's place in TABLES (`number` reads it back)."""
    return "2024030110000000" + str(number * 100 + list(TABLES).index(table)).zfill(19)


def ct_rows(table: str, number: int, op: str, after: Row, before: Row | None = None) -> list[Row]:
    """The change-table rows of one change, [I] or [B, U], as the simulator writes them
    (`change_rows`: the mask marks every column of an insert, the changed ones of an update)."""
    moment = datetime(2024, 3, 1, 10, 0, number % 60, tzinfo=UTC)
    change = Change(
        table=table,
        op=op,
        change_seq=change_seq(number, table),
        change_number=number,
        commit_time=moment,
        transaction_id=f"{number:032X}",
        before=before,
        after=after,
        timestamp=moment,
        stream_position=f"lsn:{number}",
    )
    return list(change_rows(change, SPECS[table], trim="never"))


def file_rows(file: str, table: str) -> list[Row]:
    """The rows of landed file A, B, C or D (landed in that order) of one table."""
    changes: dict[str, list[tuple[Any, ...]]] = {
        "A": [
            (10, "I", (1, "Ann")),
            (20, "I", (2, "Bob")),
            (30, "U", (1, "Anna"), (1, "Ann")),
            (40, "I", (4, "Dan")),
            (40, "I", (4, "Dave")),
            (50, "I", (5, "Eve")),
        ],
        "B": [(10, "I", (1, "Ann")), (20, "I", (2, "Bobby"))],
        "C": [(30, "U", (1, "Annie"), (1, "Ann"))],
        "D": [
            (20, "I", (7, "Bobby")),
            (50, "I", (5, "Eva")),
            (50, "I", (5, "Evi")),
            (60, "I", (6, "Fay")),
        ],
    }
    return [row for change in changes[file] for row in ct_rows(table, *change)]


LANDED_AT = {"A": 1_700_000_000, "B": 1_700_000_100, "C": 1_700_000_200, "D": 1_700_000_300}


def land(root: Path, file: str) -> None:
    """One file per table holding FILES[file], its modification time LANDED_AT[file]; with
    the first, an empty full load."""
    written = write_parquet(
        root,
        {name: file_rows(file, name) for name in SPECS},
        {name: {} for name in SPECS} if file == "A" else None,
        tables=list(SPECS.values()),
    )
    for name in SPECS:
        for path in written[f"{name}__ct"]:
            os.utime(path, (LANDED_AT[file], LANDED_AT[file]))


def dbt_vars(root: Path) -> dict[str, object]:
    return {
        "qlik_ct_landing": "files",
        "qlik_ct_landing_root": str(root),
        "qlik_ct_landing_format": "parquet",
        "cdc_tables": TABLES,
        # one table a statement: every run's log write is two statements (the second by
        # cdc_write_later_batches, into the existing table from run 2 on) and the
        # quarantine's three, which the expected rows below hold all the same
        "cdc_tables_per_statement": 1,
    }


def rows(spark: Any, query: str) -> list[tuple[Any, ...]]:
    return sorted(tuple(row) for row in spark.sql(query).collect())


def current(spark: Any, table: str) -> list[tuple[Any, ...]]:
    return rows(spark, f"select id, name from {SCHEMA}.dim_{table}_current")


def number(order_key: str | None) -> int | None:
    return None if order_key is None else int(order_key[-19:]) // 100


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, spark: Any, run_dbt: Any) -> dict[str, Any]:
    """Run 1 (files A and B), run 2 (C), run 3 (D, then `dbt build`: every data test), and a
    run with nothing new."""
    work = tmp_path_factory.mktemp("duplicate_resolution")
    project = project_with_tables(work / "project", TABLES)
    root = work / "landing"
    land(root, "A")
    land(root, "B")
    run_dbt(["run"], schema=SCHEMA, vars=dbt_vars(root), project_dir=project)
    after_run_1: dict[str, Any] = {table: current(spark, table) for table in TABLES}
    after_run_1["flags"] = rows(
        spark,
        "select order_key, array_join(array_sort(flags), ',') from"
        f" {SCHEMA}.int_qlik_ct__changes_logged where source_table = 'd_latest'",
    )
    land(root, "C")
    run_dbt(["run"], schema=SCHEMA, vars=dbt_vars(root), project_dir=project)
    land(root, "D")
    run_dbt(
        ["build", "--exclude", "test_type:unit"],
        schema=SCHEMA,
        vars=dbt_vars(root),
        project_dir=project,
    )
    after_run_3 = snapshot(spark)
    run_dbt(["run"], schema=SCHEMA, vars=dbt_vars(root), project_dir=project)
    return {"after_run_1": after_run_1, "after_run_3": after_run_3, "after_rerun": snapshot(spark)}


def snapshot(spark: Any) -> dict[str, list[tuple[Any, ...]]]:
    """What a user reads of both tables: histories, change log and quarantine."""
    return {
        name: rows(spark, f"select to_json(struct(*)) from {SCHEMA}.{name}")
        for name in [
            "dim_d_latest_history",
            "dim_d_plain_history",
            "int_qlik_ct__changes_logged",
            "int_qlik_ct__rows_quarantined",
        ]
    }


def test_the_latest_landed_row_is_kept_within_a_run(built: dict[str, Any]) -> None:
    assert built["after_run_1"]["d_latest"] == [(1, "Anna"), (2, "Bobby"), (5, "Eve")]
    assert built["after_run_1"]["d_plain"] == [(1, "Anna"), (5, "Eve")]
    assert [(number(key), flags) for key, flags in built["after_run_1"]["flags"]] == [
        (10, ""),
        (20, "latest_load_kept"),
        (30, ""),
        (50, ""),
    ]


def test_a_later_run_supersedes_a_staged_row(built: dict[str, Any], spark: Any) -> None:
    assert current(spark, "d_latest") == [(1, "Annie"), (6, "Fay"), (7, "Bobby")]
    history = rows(
        spark,
        "select id, valid_from_order_key, valid_to_order_key, change_op, name"
        f" from {SCHEMA}.dim_d_latest_history",
    )
    assert [(i, number(start), number(end), op, name) for i, start, end, op, name in history] == [
        (1, 10, 30, "I", "Ann"),
        (1, 30, None, "U", "Annie"),
        (6, 60, None, "I", "Fay"),
        (7, 20, None, "I", "Bobby"),
    ]


def test_without_the_option_conflicts_stay_quarantined(built: dict[str, Any], spark: Any) -> None:
    assert current(spark, "d_plain") == [(1, "Anna"), (5, "Eve"), (6, "Fay")]
    quarantined = rows(
        spark,
        "select raw_key, reason from"
        f" {SCHEMA}.int_qlik_ct__rows_quarantined where source_table = 'd_plain'",
    )
    assert [(number(key.split("+")[0]), key[-1], reason) for key, reason in quarantined] == [
        (20, "I", CONFLICT),
        (20, "I", CONFLICT),
        (20, "I", LATE_CONFLICT),
        (30, "U", LATE_CONFLICT),
        (40, "I", CONFLICT),
        (40, "I", CONFLICT),
        (50, "I", f"{LATE_CONFLICT}; {CONFLICT}"),
        (50, "I", f"{LATE_CONFLICT}; {CONFLICT}"),
    ]


def test_every_superseded_row_is_in_the_quarantine_with_why(
    built: dict[str, Any], spark: Any
) -> None:
    quarantined = rows(
        spark,
        "select raw_key, get_json_object(record_json, '$.name'), reason from"
        f" {SCHEMA}.int_qlik_ct__rows_quarantined where source_table = 'd_latest'",
    )
    assert [
        (number(key.split("+")[0]), key[-1], name, reason) for key, name, reason in quarantined
    ] == sorted(
        [
            (20, "I", "Bob", SUPERSEDED_IN_RUN),
            (20, "I", "Bobby", SUPERSEDED_LATER_RUN),
            (30, "U", "Anna", SUPERSEDED_LATER_RUN),
            (40, "I", "Dan", TIED),
            (40, "I", "Dave", TIED),
            (50, "I", "Eva", TIED),
            (50, "I", "Eve", SUPERSEDED_LATER_RUN),
            (50, "I", "Evi", TIED),
        ]
    )


def test_the_change_log_flags_what_was_resolved(built: dict[str, Any], spark: Any) -> None:
    logged = rows(
        spark,
        "select order_key, op, after_image['name'], array_join(array_sort(flags), ',')"
        f" from {SCHEMA}.fct_cdc_changes where source_table = 'd_latest'",
    )
    assert [(number(key), op, name, flags) for key, op, name, flags in logged] == [
        (10, "I", "Ann", ""),
        (20, "I", "Bobby", "supersedes_staged"),
        (30, "U", "Annie", "supersedes_staged"),
        (60, "I", "Fay", ""),
    ]


def test_point_in_time_follows_the_kept_rows(built: dict[str, Any], spark: Any) -> None:
    def at(number: int) -> list[tuple[Any, ...]]:
        point = change_seq(number, "d_latest")
        return rows(spark, f"select id, name from {SCHEMA}.d_latest_as_of('{point}')")

    assert at(25) == [(1, "Ann"), (7, "Bobby")]
    assert at(45) == [(1, "Annie"), (7, "Bobby")]
    assert at(60) == [(1, "Annie"), (6, "Fay"), (7, "Bobby")]


def test_a_run_with_nothing_new_changes_nothing(built: dict[str, Any]) -> None:
    assert built["after_rerun"] == built["after_run_3"]
