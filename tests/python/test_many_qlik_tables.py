"""Twelve Qlik change tables on the embedded Derby metastore: every model builds, with every
table's rows in the change log and the quarantine; a second run with nothing new landed
skips every incremental model and keeps every view and every table but the landed-file
list, changing none of them; a third run after a change to the project's code creates every
view and table again; a fourth run after one table landed a new change writes that table's
chain (and the shared log and quarantine) and leaves every other table's alone, reading
nothing of theirs (macros/inputs/); the transaction-consistent as-of functions agree with
the plain ones. The log and the quarantine are written five tables a statement
(cdc_tables_per_statement; cdc_write_later_batches), as a project of more than 25 tables
writes them by default: every table's rows reach both all the same.

Derby keeps a view's SQL text in at most 32,700 characters. The Qlik union views
(int_qlik_ct__changes_canonical, int_qlik_ct__rows_quarantined) used to hold each table's
pairing and judging SQL inline, about 3,400 characters a table with five columns, so a
project with more than about nine Qlik tables could not store them ("A truncation error was
encountered trying to shrink LONG VARCHAR"). Each table now has its own quarantine view
(int_qlik_ct__<table>_rows_quarantined), which the union view names, one line a table; the
pairing is SQL of the change log (qlik_ct_changes_paired), a table, whose text Derby does not
store, and no view of a table's own.

Each table lands the tiny data of cdc_simulator.tiny_qlik_tables (Parquet): a full-load row
(key 1), an insert of key 2 (change 10), an update of key 2's name (change 20, a B and a U
row) and a before-image with no update (change 30: quarantined as an orphan).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from cdc_simulator import tiny_qlik_tables
from cdc_simulator.project_copy import project_with_tables
from cdc_simulator.qlik_ct import write_parquet

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "many_qlik_tables"
TABLE_COUNT = 12
TABLES_PER_STATEMENT = 5
DERBY_VIEW_TEXT_LIMIT = 32_700
SPECS = tiny_qlik_tables.specs(TABLE_COUNT)
TABLES = tiny_qlik_tables.cdc_tables(SPECS)
UNION_VIEWS = ("int_qlik_ct__changes_canonical", "int_qlik_ct__rows_quarantined")


# incremental models a run with nothing new skips (cdc_nothing_new), per table and shared
SKIPPED_PER_TABLE = ("stg_qlik_ct__{}", "int_{}__change_images", "dim_{}_history")
SKIPPED_SHARED = ("int_qlik_ct__changes_logged",)
# the table that lands one more change (change 40: key 2's name Bea -> Cy) before the
# fourth run; not one of the tables test_consistent_as_of_agrees_with_as_of checks
LATE = SPECS[3]
LATE_ROW = (2, "Cy", *tiny_qlik_tables.INSERTED_ROW[2:])


def table_fingerprints(spark: Any) -> dict[str, tuple[int, int]]:
    """Row count and a hash sum of every incremental model's table (the others are rebuilt
    each run, some with a build time in their rows)."""
    tables = [name.format(spec.name) for spec in SPECS for name in SKIPPED_PER_TABLE]
    tables += SKIPPED_SHARED
    found = {}
    for name in tables:
        row = spark.sql(
            f"select count(*), coalesce(sum(xxhash64(to_json(struct(*)))), 0) from {SCHEMA}.{name}"
        ).collect()[0]
        found[name] = (row[0], row[1])
    return found


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, spark: Any, run_dbt: Any) -> Any:
    """Four runs of every model: the first builds, the second finds nothing new, the third
    follows a change to a macro of the project copy (a comment appended), the fourth a new
    change landed for one table (LATE). Returns the session, the second run's results, the
    tables' fingerprints before and after it, the third run's results, the run arguments
    and the fourth run's results."""
    work = tmp_path_factory.mktemp("many_qlik_tables")
    # a copy of the package, whose macro the third run finds changed (an upgrade)
    project = project_with_tables(work / "project", TABLES, package_copy=True)
    root = work / "landing"
    tiny_qlik_tables.write_landing(root, SPECS)
    arguments = {
        "schema": SCHEMA,
        "vars": {
            "qlik_ct_landing": "files",
            "qlik_ct_landing_root": str(root),
            "qlik_ct_landing_format": "parquet",
            "cdc_tables": TABLES,
            # three statements of the log a run that writes every table (5, 5 and 2 tables)
            # and of the quarantine (5, 5 and 3 members: the landed files are one), as a
            # project of more than 25 tables has by default (cdc_write_later_batches)
            "cdc_tables_per_statement": TABLES_PER_STATEMENT,
        },
        "project_dir": project,
    }
    run_dbt(["run"], **arguments)
    before = table_fingerprints(spark)
    second = run_dbt(["run"], **arguments)
    after = table_fingerprints(spark)
    macro = (
        project / "dbt_packages" / "cdc_history" / "macros" / "point_in_time" / "point_in_time.sql"
    )
    macro.write_text(macro.read_text() + "\n{# a change to the package's code #}\n")
    third = run_dbt(["run"], **arguments)
    index = SPECS.index(LATE)
    late_rows = [
        tiny_qlik_tables.ct_row(LATE, index, 40, "B", tiny_qlik_tables.UPDATED_ROW),
        tiny_qlik_tables.ct_row(LATE, index, 40, "U", LATE_ROW),
    ]
    write_parquet(root, {LATE.name: late_rows}, tables=[LATE])
    fourth = run_dbt(["run"], **arguments)
    return spark, second, before, after, third, arguments, fourth


def model_messages(results: Any, materialized: str | None = None) -> dict[str, str]:
    """Each model's run message (of the models materialized so, if given)."""
    return {
        result.node.name: result.message
        for result in results.result.results
        if result.node.resource_type == "model"
        and materialized in (None, result.node.config.materialized)
    }


def test_every_table_reaches_the_change_log(built: Any) -> None:
    rows = (
        built[0]
        .sql(
            f"""
        select source_table, op, is_snapshot, pk_string, after_image['name'],
            before_image['name']
        from {SCHEMA}.fct_cdc_changes
        """
        )
        .collect()
    )
    by_table: dict[str, list[tuple[object, ...]]] = {}
    for row in rows:
        by_table.setdefault(row[0], []).append(tuple(row[1:]))
    expected = sorted(
        [
            ("I", True, "id=1", "Al", None),
            ("I", False, "id=2", "Bo", None),
            ("U", False, "id=2", "Bea", "Bo"),
        ],
        key=repr,
    )
    late = sorted([*expected, ("U", False, "id=2", "Cy", "Bea")], key=repr)
    assert {table: sorted(found, key=repr) for table, found in by_table.items()} == {
        spec.name: late if spec is LATE else expected for spec in SPECS
    }


def test_every_tables_orphan_before_image_is_quarantined(built: Any) -> None:
    rows = (
        built[0]
        .sql(f"select source_table, landed_table, reason from {SCHEMA}.fct_cdc_quarantine")
        .collect()
    )
    assert sorted(tuple(row) for row in rows) == [
        (spec.name, f"{spec.name}__ct", "orphan before-image: no valid U row has this change_seq")
        for spec in SPECS
    ]


@pytest.mark.parametrize("view", UNION_VIEWS)
def test_union_views_stay_far_below_derbys_view_text_limit(built: Any, view: str) -> None:
    """The stored text grows by one short line a table (about 100 characters), not by the
    table's SQL (which took the old views past the limit at about nine tables)."""
    text = built[0].sql(f"show create table {SCHEMA}.{view}").collect()[0][0]
    assert len(text) < DERBY_VIEW_TEXT_LIMIT / 4, len(text)


def test_the_per_table_views_exist_for_every_table(built: Any) -> None:
    """Each table's quarantine view; its pairing is no view (the log's SQL)."""
    views = {row.viewName for row in built[0].sql(f"show views in {SCHEMA}").collect()}
    for spec in SPECS:
        assert f"int_qlik_ct__{spec.name}_rows_quarantined" in views
        assert f"int_qlik_ct__{spec.name}_changes_paired" not in views


def test_a_run_with_nothing_new_skips_every_incremental_model(built: Any) -> None:
    messages = model_messages(built[1])
    expected = [name.format(spec.name) for spec in SPECS for name in SKIPPED_PER_TABLE]
    expected += SKIPPED_SHARED
    assert {name: messages[name] for name in expected} == dict.fromkeys(expected, "nothing new")


def test_a_run_with_nothing_new_keeps_every_table(built: Any) -> None:
    """The current states and the quarantine read what they read in the first run
    (macros/materializations/table.sql), and the landed folders list the
    files the landed-file list was built from (cdc_landed_listing_digest: names, sizes,
    modification times), so the list is kept too; the fourth run below, with a new file,
    builds it again."""
    tables = model_messages(built[1], "table")
    assert len(tables) == TABLE_COUNT + 2
    assert "stg_qlik_ct__landed_files" in tables
    assert tables == dict.fromkeys(tables, "unchanged")


def test_a_new_change_of_one_table_runs_that_table_alone(built: Any) -> None:
    """LATE landed a file: its staging, images and history write and its current state is
    rebuilt, and so are the log and the quarantine that every table feeds; every other
    table's models find nothing new or are kept, decided without a query of their own."""
    messages = model_messages(built[6])
    late = {name.format(LATE.name) for name in (*SKIPPED_PER_TABLE, "dim_{}_current")} | {
        "int_qlik_ct__changes_logged",
        "fct_cdc_quarantine",
        "stg_qlik_ct__landed_files",
    }
    assert {
        name: messages[name] for name in late if messages[name] in ("nothing new", "unchanged")
    } == {}
    others = {
        name.format(spec.name)
        for spec in SPECS
        if spec is not LATE
        for name in (*SKIPPED_PER_TABLE, "dim_{}_current")
    }
    assert {name: messages[name] for name in others} == {
        name: "unchanged" if name.endswith("_current") else "nothing new" for name in others
    }
    current = (
        built[0].sql(f"select pk_string, name from {SCHEMA}.dim_{LATE.name}_current").collect()
    )
    assert sorted(tuple(row) for row in current) == [("id=1", "Al"), ("id=2", "Cy")]


def test_a_run_with_nothing_new_keeps_every_view(built: Any) -> None:
    """The views' definitions, their hooks (the table functions), the code and the landed
    tables' columns are those of the first run: every view is kept as it is (the
    materialization in macros/materializations/view.sql)."""
    views = model_messages(built[1], "view")
    assert len(views) == 5 * TABLE_COUNT + 6
    assert views == dict.fromkeys(views, "unchanged")


def test_a_change_to_the_code_creates_every_view_again(built: Any) -> None:
    """A macro file changed (the code fingerprint, python_udfs/code_fingerprint.py): no
    view is kept, so none can keep a definition the new code would not write."""
    views = model_messages(built[4], "view")
    assert len(views) == 5 * TABLE_COUNT + 6
    assert "unchanged" not in views.values()
    tables = model_messages(built[4], "table")
    assert "unchanged" not in tables.values()
    incremental = model_messages(built[4], "incremental")
    assert incremental == dict.fromkeys(incremental, "nothing new")


def test_a_run_with_nothing_new_changes_no_table(built: Any) -> None:
    _, _, before, after, *_ = built
    assert all(rows > 0 for rows, _ in before.values()), before
    assert after == before


def test_each_run_reads_a_change_tables_columns_once(built: Any) -> None:
    """qlik_ct_layout reads a change table's DDL once per dbt command (remembered in `graph`
    under the invocation id), not once for each of the table's models that needs its
    columns (eight a run before, about 0.05 s each): over the fixture's four runs, the
    project copy's dbt log shows each change table described at most four times, and at
    least once (the log does hold the statements)."""
    *_, arguments, _ = built
    log_text = "".join(
        path.read_text(errors="replace")
        for path in sorted((arguments["project_dir"] / "logs").glob("dbt.log*"))
    )
    for spec in SPECS:
        statement = re.compile(rf"describe (table )?extended `?raw_qlik_ct`?\.`?{spec.name}__ct\b")
        described = len(statement.findall(log_text))
        assert 1 <= described <= 4, f"{spec.name}__ct described {described} times in 4 runs"


def test_the_log_table_holds_every_logged_change_once(built: Any) -> None:
    """Two changes a table (the insert at change 10, the update at change 20), and LATE's
    update at change 40: not the B rows, not the orphan B of change 30; no transaction end
    and no incomplete
    transaction, which is what the consistent as-of functions read from it."""
    rows = (
        built[0]
        .sql(
            f"select source_table, order_key, txn_last,"
            f" array_contains(flags, 'transaction_incomplete')"
            f" from {SCHEMA}.int_qlik_ct__changes_canonical where not is_snapshot"
        )
        .collect()
    )
    assert len(rows) == 2 * TABLE_COUNT + 1
    assert len({row.order_key for row in rows}) == len(rows)
    assert {row.source_table for row in rows} == {spec.name for spec in SPECS}
    assert {(row.txn_last, row[3]) for row in rows} == {(None, False)}


def test_the_boundaries_view_shows_a_later_change_without_a_rebuild(built: Any) -> None:
    """Replicate marks no transaction ends, so its transaction boundaries are a view of the
    log's points (cdc_transaction_boundaries), not a table copied from the log in every run
    that logs anything: the fourth run keeps the view as it is, and LATE's consistent
    function answers with LATE's change 40 (key 2's name Bea -> Cy) all the same."""
    assert model_messages(built[6])["int_qlik_ct__transaction_boundaries"] == "unchanged"
    assert "int_qlik_ct__transaction_boundaries" in model_messages(built[6], "view")
    rows = (
        built[0]
        .sql(f"select pk_string, name from {SCHEMA}.{LATE.name}_as_of_consistent('latest')")
        .collect()
    )
    assert sorted(tuple(row) for row in rows) == [("id=1", "Al"), ("id=2", "Cy")]


# the order key of table_000's update (change 20): after every table's insert (change 10)
# but before the other tables' updates (tiny_qlik_tables numbers changes apart per table)
BETWEEN = tiny_qlik_tables.ct_row(SPECS[0], 0, 20, "U", tiny_qlik_tables.UPDATED_ROW)[0]


@pytest.mark.parametrize("point", ["latest", BETWEEN, "0", "2024-03-01 09:00:00"])
def test_consistent_as_of_agrees_with_as_of(built: Any, point: str) -> None:
    """Replicate marks no transaction ends: every change is a boundary, so the consistent
    mode (read from the log table through int_qlik_ct__changes_canonical) agrees with the
    plain one, for every table, before, between and after the changes."""
    spark = built[0]
    names = {}
    checked = [SPECS[0], SPECS[1], SPECS[-1]]
    for spec in checked:
        plain, consistent = (
            sorted(
                tuple(row)
                for row in spark.sql(
                    f"select pk_string, name, last_order_key from {SCHEMA}.{function}('{point}')"
                ).collect()
            )
            for function in (f"{spec.name}_as_of", f"{spec.name}_as_of_consistent")
        )
        assert consistent == plain, (spec.name, point)
        names[spec.name] = [row[:2] for row in plain]
    expected = {
        "latest": [("id=1", "Al"), ("id=2", "Bea")],
        BETWEEN: [("id=1", "Al"), ("id=2", "Bo")],
        "0": [("id=1", "Al")],
        "2024-03-01 09:00:00": [("id=1", "Al")],
    }[point]
    assert {name: rows for name, rows in names.items() if name != SPECS[0].name} == {
        spec.name: expected for spec in checked[1:]
    }
    if point == BETWEEN:
        assert names[SPECS[0].name] == [("id=1", "Al"), ("id=2", "Bea")]


def test_the_image_tests_catch_a_drifted_table(built: Any, run_dbt: Any) -> None:
    """Runs last but one (it alters a table): on a table given an extra column and one row twice,
    the image layout contract (column_contract with cdc_table_image_columns) and the key
    test (primary_key) of int_<table>__change_images each fail with one row; the other
    tables' pass."""
    spark, arguments = built[0], built[5]
    table = f"{SCHEMA}.int_table_005__change_images"
    spark.sql(f"alter table {table} add columns (drifted string)")
    spark.sql(f"insert into {table} select * from {table} where not is_before_image limit 1")
    result = run_dbt(
        ["test", "--select", "test_name:column_contract", "test_name:primary_key"],
        expect_success=False,
        **arguments,
    )
    outcome: dict[tuple[str, str], tuple[str, int]] = {}
    for found in result.result.results:
        if found.node.resource_type != "test":
            continue
        model = str(found.node.attached_node).rsplit(".", 1)[-1]
        if model.endswith("__change_images"):
            name = found.node.test_metadata.name
            outcome[(model, name)] = (str(found.status), found.failures)
    for name in ("column_contract", "primary_key"):
        assert outcome.pop(("int_table_005__change_images", name)) == ("fail", 1), name
    assert len(outcome) == 2 * (TABLE_COUNT - 1)
    assert set(outcome.values()) == {("pass", 0)}


def test_a_view_over_a_table_whose_columns_changed_is_created_again(
    built: Any, run_dbt: Any
) -> None:
    """Runs last, after the drift above (it alters a table too): a view's fingerprint stops at
    the tables it reads and takes their columns as the relation cache lists them
    (cdc_view_fingerprint), so once dim_table_005_history has a column more, the change view
    over it is created again, while the same view of an untouched table is kept."""
    spark, arguments = built[0], built[5]
    spark.sql(f"alter table {SCHEMA}.dim_table_005_history add columns (drifted string)")
    result = run_dbt(
        ["run", "--select", "dim_table_005_changes", "dim_table_000_changes"], **arguments
    )
    messages = model_messages(result)
    assert messages["dim_table_000_changes"] == "unchanged", messages
    assert messages["dim_table_005_changes"] != "unchanged", messages
