"""A reload of a Qlik full-load table applied as a snapshot (docs/qlik-change-tables.md, "A Qlik
reload applied as a snapshot"), end to end on Parquet files over three runs and three reruns, the
expected rows worked out by hand below from the rule, not from the output.

The rule: once a full load with rows is logged, a change of the table's full-load folder is a
**reload**. It is applied as a snapshot at its position P, the newest modification time of the
folder's readable files read as change_seq's time part (YYYYMMDDHHmmSShh): a TRUNCATE at
P + change number 0 ends every key, then the reload's valid rows are inserted at P + change
number 1; both flagged `reload`. So a key the reload lacks ends at P. The baseline logged
before stays: the log keeps it, though the folder no longer holds it.

Three tables with columns (id, name), key id, get the same full load and changes; r_reload
and r_known (bitemporal) are reloaded, r_plain is not. Change numbers n at 10:00 (before the
reload) or 12:00 (after), 2024-03-01 UTC:

    run 1  full load (files at 09:00):   1 Ann, 2 Bob, 3 Cy
           changes:  10 U 1 Ann -> Anna   (10:00)
                     20 I 4 Dan           (10:00)
    run 2  r_reload's folder replaced (files at 11:00, so P = 2024030111000000):
                     1 Anna, 2 Bobby, 5 Eve, and a row with a NULL key (invalid)
           changes:  30 U 2 Bobby -> Bo   (12:00, after P)
    run 3  changes:  40 I 6 Fay           (13:00; the day's log bucket is written again)
           a second full-load file beside the first (files at 13:00), a later part of the
           load in force: 7 Gil in r_reload's and r_known's (a part of the reload: logged
           again at P), 8 Hal in r_plain's (a part of the baseline: logged at 0)
    then a run with nothing new, and a run after a write of the log that never finished
    (every table written whole).

r_reload after run 3, with T = P + 19 zeros and R = P + 18 zeros + 1:
    key 1: [0, 10) I Ann; [10, T) U Anna; [T, R) T deleted; [R, -) I Anna
    key 2: [0, T) I Bob; [T, R) T deleted; [R, 30) I Bobby; [30, -) U Bo
    key 3: [0, T) I Cy; [T, -) T deleted          (the reload lacks it: it ends at P)
    key 4: [20, T) I Dan; [T, -) T deleted
    key 5: [R, -) I Eve
    key 6: [40, -) I Fay
    key 7: [R, -) I Gil
    current {1 Anna, 2 Bo, 5 Eve, 6 Fay, 7 Gil}; as of change 20: {1 Anna, 2 Bob, 3 Cy,
    4 Dan}; as of T: nothing; as of R: {1 Anna, 2 Bobby, 5 Eve, 7 Gil}. The NULL-key row is
    quarantined, `null key value in id`. The two later runs change nothing.
r_plain (no reload): {1 Anna, 2 Bo, 3 Cy, 4 Dan, 6 Fay, 8 Hal}, key 8 from 0, no reload row.
r_known answers as r_reload; after run 2, asked at R as the warehouse knew it between runs 1
and 2 (the reload not landed yet) it answers {1 Anna, 2 Bob, 3 Cy, 4 Dan}, the state after
change 20, and as it knows it now {1 Anna, 2 Bobby, 5 Eve}.

A full refresh then rebuilds from what is landed, and the folder holds the reload only: it
becomes the baseline (1 Anna, 2 Bobby, 5 Eve, 7 Gil at 0) and every change applies on top of
it, so key 4 (inserted at 20, ended by the reload no longer landed) is back:
    current {1 Anna, 2 Bo, 4 Dan, 5 Eve, 6 Fay, 7 Gil}, no reload row.
    docs/qlik-change-tables.md says so.
"""

from __future__ import annotations

import os
import shutil
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from cdc_simulator.project_copy import project_with_tables
from cdc_simulator.qlik_ct import change_rows, write_parquet
from cdc_simulator.table_model import UTC, Change, ColumnSpec, TableSpec

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "qlik_reload"
COLUMNS = (ColumnSpec("id", "int32"), ColumnSpec("name", "string"))
TABLES: dict[str, dict[str, Any]] = {
    "r_reload": {"source_system": "qlik_ct", "key_columns": ["id"]},
    "r_plain": {"source_system": "qlik_ct", "key_columns": ["id"]},
    "r_known": {"source_system": "qlik_ct", "key_columns": ["id"], "bitemporal": True},
}
SPECS = {name: TableSpec(name, COLUMNS, ("id",)) for name in TABLES}
Row = tuple[object, ...]

P = "2024030111000000"
TRUNCATE_KEY = P + "0" * 19
RELOAD_KEY = P + "0" * 18 + "1"
ZEROS = "0" * 35


def moment(hour: int) -> datetime:
    return datetime(2024, 3, 1, hour, 0, 0, tzinfo=UTC)


def change_seq(number: int, hour: int, table: str) -> str:
    """A 35-digit change_seq (spec A.3): the commit time, then the change number (each
    table's own: number * 10 + its place in TABLES, as one task numbers every change once)."""
    return (
        moment(hour).strftime("%Y%m%d%H%M%S")
        + "00"
        + str(number * 10 + list(TABLES).index(table)).zfill(19)
    )


def ct_rows(
    table: str, number: int, hour: int, op: str, after: Row, before: Row | None = None
) -> list[Row]:
    """The change-table rows of one change as the simulator writes them."""
    change = Change(
        table=table,
        op=op,
        change_seq=change_seq(number, hour, table),
        change_number=number,
        commit_time=moment(hour),
        transaction_id=f"{number:032X}",
        before=before,
        after=after,
        timestamp=moment(hour),
        stream_position=f"lsn:{number}",
    )
    return list(change_rows(change, SPECS[table], trim="never"))


def land(
    root: Path,
    tables: list[str],
    changes: list[tuple[Any, ...]],
    full_load: dict[tuple[object, ...], Row] | None,
    hour: int,
    replace: bool = True,
) -> None:
    """The changes (and, when given, a full-load file: replacing the folder's files, or beside
    them) of `tables`, every file modified at `hour`."""
    if full_load is not None and replace:
        for name in tables:
            shutil.rmtree(root / name, ignore_errors=True)
    written = write_parquet(
        root,
        {name: [row for change in changes for row in ct_rows(name, *change)] for name in tables},
        None if full_load is None else {name: full_load for name in tables},
        tables=[SPECS[name] for name in tables],
    )
    stamp = moment(hour).timestamp()
    for paths in written.values():
        for path in paths:
            os.utime(path, (stamp, stamp))


def dbt_vars(root: Path) -> dict[str, object]:
    return {
        "qlik_ct_landing": "files",
        "qlik_ct_landing_root": str(root),
        "qlik_ct_landing_format": "parquet",
        "cdc_tables": TABLES,
    }


def rows(spark: Any, query: str) -> list[tuple[Any, ...]]:
    return sorted((tuple(row) for row in spark.sql(query).collect()), key=repr)


QUERIES = {
    "current": f"select id, name from {SCHEMA}.dim_r_reload_current",
    "known_current": f"select id, name from {SCHEMA}.dim_r_known_current",
    "plain_current": f"select id, name from {SCHEMA}.dim_r_plain_current",
    "history": (
        "select pk_string, valid_from_order_key, valid_to_order_key, change_op, is_deleted,"
        f" name from {SCHEMA}.dim_r_reload_history"
    ),
    "reload_logged": (
        "select order_key, coalesce(op, control_op), pk_string, is_snapshot,"
        " array_join(flags, ','), effective_at, log_bucket"
        f" from {SCHEMA}.int_qlik_ct__changes_logged"
        " where source_table = 'r_reload' and array_contains(flags, 'reload')"
    ),
    "reload_changes": (
        f"select order_key from {SCHEMA}.fct_cdc_changes"
        " where source_table = 'r_reload' and array_contains(flags, 'reload')"
    ),
    "baseline_logged": (
        f"select pk_string, after_image['name'] from {SCHEMA}.fct_cdc_changes"
        f" where source_table = 'r_reload' and order_key = '{ZEROS}'"
    ),
    "plain_baseline": (
        f"select cast(after_image['id'] as int), after_image['name'] from {SCHEMA}.fct_cdc_changes"
        f" where source_table = 'r_plain' and order_key = '{ZEROS}'"
    ),
    "plain_reloads": (
        f"select count(*) from {SCHEMA}.fct_cdc_changes"
        " where source_table = 'r_plain' and array_contains(flags, 'reload')"
    ),
    "quarantined": (
        f"select reason from {SCHEMA}.int_qlik_ct__rows_quarantined where source_table = 'r_reload'"
    ),
    **{
        f"as_of_{name}": f"select id, name from {SCHEMA}.r_reload_as_of('{point}')"
        for name, point in [
            ("20", "2024030110000000" + str(200).zfill(19)),
            ("T", TRUNCATE_KEY),
            ("R", RELOAD_KEY),
        ]
    },
    **{
        f"all_{name}": f"select to_json(struct(*)) from {SCHEMA}.{name}"
        for name in [
            "dim_r_reload_history",
            "dim_r_plain_history",
            "int_qlik_ct__changes_logged",
            "int_qlik_ct__rows_quarantined",
        ]
    },
}


def read(spark: Any) -> dict[str, list[tuple[Any, ...]]]:
    """Every query of QUERIES, as it answers now."""
    return {name: rows(spark, query) for name, query in QUERIES.items()}


def label(order_key: str | None) -> object:
    """An order key as the docstring writes it: 0, a change number, T, R or None."""
    if order_key is None:
        return None
    named: dict[str, object] = {ZEROS: 0, TRUNCATE_KEY: "T", RELOAD_KEY: "R"}
    return named[order_key] if order_key in named else int(order_key[-19:]) // 10


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, spark: Any, run_dbt: Any) -> dict[str, Any]:
    """Runs 1 to 3 (run 2 the reload, a `dbt build`: every data test), a run with nothing new,
    a run after a write of the log that never finished, and a full refresh; what QUERIES
    answer after each."""
    work = tmp_path_factory.mktemp("qlik_reload")
    project = project_with_tables(work / "project", TABLES)
    root = work / "landing"

    def run(*args: str) -> None:
        run_dbt(list(args), schema=SCHEMA, vars=dbt_vars(root), project_dir=project)

    land(root, list(TABLES), [], {(1,): (1, "Ann"), (2,): (2, "Bob"), (3,): (3, "Cy")}, 9)
    changes = [(10, 10, "U", (1, "Anna"), (1, "Ann")), (20, 10, "I", (4, "Dan"))]
    land(root, list(TABLES), changes, None, 10)
    run("run")
    after_run_1 = read(spark)
    between_runs = spark.sql("select cast(current_timestamp() as string)").first()[0]
    reload: dict[tuple[object, ...], Row] = {
        (1,): (1, "Anna"),
        (2,): (2, "Bobby"),
        (5,): (5, "Eve"),
        (None,): (None, "Nobody"),
    }
    land(root, ["r_reload", "r_known"], [], reload, 11)
    land(root, list(TABLES), [(30, 12, "U", (2, "Bo"), (2, "Bobby"))], None, 12)
    run("build", "--exclude", "test_type:unit")
    known = {
        name: rows(spark, f"select id, name from {SCHEMA}.r_known_as_of('{RELOAD_KEY}', {at})")
        for name, at in [("before", f"'{between_runs}'"), ("latest", "'latest'")]
    }
    land(root, list(TABLES), [(40, 13, "I", (6, "Fay"))], None, 13)
    land(root, ["r_reload", "r_known"], [], {(7,): (7, "Gil")}, 13, replace=False)
    land(root, ["r_plain"], [], {(8,): (8, "Hal")}, 13, replace=False)
    run("run")
    after_run_3 = read(spark)
    run("run")
    after_rerun = read(spark)
    # as a write killed half way leaves the log: the next run writes every table whole
    spark.sql(
        f"alter table {SCHEMA}.int_qlik_ct__changes_logged"
        " set tblproperties ('cdc.write' = 'started')"
    )
    run("run")
    after_unfinished = read(spark)
    run("run", "--full-refresh")
    return {
        "run_1": after_run_1,
        "run_3": after_run_3,
        "rerun": after_rerun,
        "unfinished": after_unfinished,
        "full_refresh": read(spark),
        "known": known,
    }


def test_the_first_run_takes_the_full_load_as_the_baseline(built: dict[str, Any]) -> None:
    for name in ["current", "plain_current"]:
        assert built["run_1"][name] == [(1, "Anna"), (2, "Bob"), (3, "Cy"), (4, "Dan")]
    assert built["run_1"]["reload_logged"] == []


def test_a_reload_ends_the_keys_it_lacks(built: dict[str, Any]) -> None:
    for name in ["current", "known_current"]:
        assert built["run_3"][name] == [(1, "Anna"), (2, "Bo"), (5, "Eve"), (6, "Fay"), (7, "Gil")]
    # a deleted version shows the state it ends (spec F.5: a tombstone keeps the last
    # state), a TRUNCATE's as a delete's
    assert sorted(
        (
            (int(key.split("=")[1]), label(start), label(end), op, deleted, name)
            for key, start, end, op, deleted, name in built["run_3"]["history"]
        ),
        key=repr,
    ) == sorted(
        [
            (1, 0, 10, "I", False, "Ann"),
            (1, 10, "T", "U", False, "Anna"),
            (1, "T", "R", "T", True, "Anna"),
            (1, "R", None, "I", False, "Anna"),
            (2, 0, "T", "I", False, "Bob"),
            (2, "T", "R", "T", True, "Bob"),
            (2, "R", 30, "I", False, "Bobby"),
            (2, 30, None, "U", False, "Bo"),
            (3, 0, "T", "I", False, "Cy"),
            (3, "T", None, "T", True, "Cy"),
            (4, 20, "T", "I", False, "Dan"),
            (4, "T", None, "T", True, "Dan"),
            (5, "R", None, "I", False, "Eve"),
            (6, 40, None, "I", False, "Fay"),
            (7, "R", None, "I", False, "Gil"),
        ],
        key=repr,
    )


def test_points_in_time_either_side_of_the_reload(built: dict[str, Any]) -> None:
    answers = built["run_3"]
    assert answers["as_of_20"] == [(1, "Anna"), (2, "Bob"), (3, "Cy"), (4, "Dan")]
    assert answers["as_of_T"] == []
    assert answers["as_of_R"] == [(1, "Anna"), (2, "Bobby"), (5, "Eve"), (7, "Gil")]


def test_the_change_log_flags_the_reload(built: dict[str, Any]) -> None:
    answers = built["run_3"]
    reloaded_at = datetime(2024, 3, 1, 11, 0, 0)
    bucket = "reload-" + P
    assert answers["reload_logged"] == sorted(
        [
            (TRUNCATE_KEY, "TRUNCATE", None, True, "reload", reloaded_at, bucket),
            (RELOAD_KEY, "I", "id=1", True, "reload", reloaded_at, bucket),
            (RELOAD_KEY, "I", "id=2", True, "reload", reloaded_at, bucket),
            (RELOAD_KEY, "I", "id=5", True, "reload", reloaded_at, bucket),
            (RELOAD_KEY, "I", "id=7", True, "reload", reloaded_at, bucket),
        ],
        key=repr,
    )
    assert answers["reload_changes"] == sorted([(TRUNCATE_KEY,)] + [(RELOAD_KEY,)] * 4, key=repr)
    # the baseline stays logged, though the folder no longer holds it
    assert answers["baseline_logged"] == [("id=1", "Ann"), ("id=2", "Bob"), ("id=3", "Cy")]


def test_system_time_knows_the_reload_from_when_it_landed(built: dict[str, Any]) -> None:
    assert built["known"]["before"] == [(1, "Anna"), (2, "Bob"), (3, "Cy"), (4, "Dan")]
    assert built["known"]["latest"] == [(1, "Anna"), (2, "Bobby"), (5, "Eve")]


def test_an_invalid_reload_row_is_quarantined(built: dict[str, Any]) -> None:
    assert built["run_3"]["quarantined"] == [("null key value in id",)]


def test_parts_landed_later_extend_the_load_in_force(built: dict[str, Any]) -> None:
    answers = built["run_3"]
    assert answers["plain_current"] == [
        (1, "Anna"),
        (2, "Bo"),
        (3, "Cy"),
        (4, "Dan"),
        (6, "Fay"),
        (8, "Hal"),
    ]
    assert answers["plain_baseline"] == [(1, "Ann"), (2, "Bob"), (3, "Cy"), (8, "Hal")]
    assert answers["plain_reloads"] == [(0,)]


def test_reruns_change_nothing(built: dict[str, Any]) -> None:
    """Nothing new, then the log written whole after an unfinished write: the baseline and
    the reload stay as logged (the folder, which now holds the reload, is not read as the
    baseline again)."""
    assert built["rerun"] == built["run_3"]
    assert built["unfinished"] == built["run_3"]


def test_a_full_refresh_takes_the_folder_as_the_baseline(built: dict[str, Any]) -> None:
    answers = built["full_refresh"]
    assert answers["current"] == [
        (1, "Anna"),
        (2, "Bo"),
        (4, "Dan"),
        (5, "Eve"),
        (6, "Fay"),
        (7, "Gil"),
    ]
    assert answers["baseline_logged"] == [
        ("id=1", "Anna"),
        ("id=2", "Bobby"),
        ("id=5", "Eve"),
        ("id=7", "Gil"),
    ]
    assert answers["reload_logged"] == []
