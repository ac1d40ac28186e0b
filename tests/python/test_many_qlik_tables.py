"""Twelve Qlik change tables on the embedded Derby metastore: the change log and the
quarantine build, with every table's rows in them.

Derby keeps a view's SQL text in at most 32,700 characters. The Qlik union views
(int_qlik_ct__changes_canonical, int_qlik_ct__rows_quarantined) used to hold each table's
pairing and judging SQL inline, about 3,400 characters a table with five columns, so a
project with more than about nine Qlik tables could not store them ("A truncation error was
encountered trying to shrink LONG VARCHAR"). Each table now has its own views
(int_qlik_ct__<table>_changes_paired, int_qlik_ct__<table>_rows_quarantined) and the union
views name them, one line a table.

Each table lands (Parquet): a full-load row (key 1), an insert of key 2 (change 10), an
update of key 2's name (change 20, a B and a U row) and a before-image with no update
(change 30: quarantined as an orphan).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest
from project_copy import project_with_tables

from cdc_simulator.qlik_ct import HEADER_COUNT, OPERATIONS, encode_mask, mask_length, write_parquet
from cdc_simulator.table_model import UTC, ColumnSpec, TableSpec

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "many_qlik_tables"
TABLE_COUNT = 12
DERBY_VIEW_TEXT_LIMIT = 32_700
COLUMNS = (
    ColumnSpec("id", "int32"),
    ColumnSpec("name", "string"),
    ColumnSpec("city", "string", nullable=True),
    ColumnSpec("street", "string", nullable=True),
    ColumnSpec("phone", "string", nullable=True),
    ColumnSpec("note", "string", nullable=True),
)
SPECS = [TableSpec(f"table_{i:02d}", COLUMNS, ("id",)) for i in range(TABLE_COUNT)]
TABLES = {
    spec.name: {"source_system": "qlik_ct", "source_schema": "MANY", "key_columns": ["id"]}
    for spec in SPECS
}
UNION_VIEWS = ("int_qlik_ct__changes_canonical", "int_qlik_ct__rows_quarantined")


def ct_row(spec: TableSpec, index: int, number: int, op: str, values: tuple[object, ...]) -> tuple:
    """One change-table row; change_seq numbers every table's changes apart (number * 100 +
    the table's index), as Replicate numbers every change of a task once."""
    seq = "2024030110000000" + str(number * 100 + index).zfill(19)
    positions = {"I": range(len(COLUMNS)), "U": [1], "B": []}[op]
    mask = encode_mask([HEADER_COUNT + p for p in positions], trim=False, length=mask_length(spec))
    timestamp = datetime(2024, 3, 1, 10, 0, number % 60, tzinfo=UTC)
    operation = OPERATIONS[op]
    return (
        seq,
        op,
        mask if op != "B" else b"",
        f"lsn:{number}",
        operation,
        f"tx{number}",
        timestamp,
        *values,
    )


def landing() -> tuple[dict[str, list[tuple]], dict[str, dict[tuple, tuple]]]:
    changes: dict[str, list[tuple]] = {}
    baseline: dict[str, dict[tuple, tuple]] = {}
    for index, spec in enumerate(SPECS):
        old = (2, "Bo", "Oslo", "Main St 1", "+47 1", 'a "quoted", note')
        new = (2, "Bea", *old[2:])
        changes[spec.name] = [
            ct_row(spec, index, 10, "I", old),
            ct_row(spec, index, 20, "B", old),
            ct_row(spec, index, 20, "U", new),
            ct_row(spec, index, 30, "B", (1, "Al", None, None, None, None)),
        ]
        baseline[spec.name] = {(1,): (1, "Al", None, None, None, None)}
    return changes, baseline


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, spark: Any, run_dbt: Any) -> Any:
    work = tmp_path_factory.mktemp("many_qlik_tables")
    project = project_with_tables(work / "project", TABLES)
    root = work / "landing"
    changes, baseline = landing()
    write_parquet(root, changes, baseline, tables=SPECS)
    run_dbt(
        ["run", "--select", "+fct_cdc_changes", "+fct_cdc_quarantine"],
        schema=SCHEMA,
        vars={
            "qlik_ct_landing": "files",
            "qlik_ct_landing_root": str(root),
            "qlik_ct_landing_format": "parquet",
            "cdc_tables": TABLES,
        },
        project_dir=project,
    )
    return spark


def test_every_table_reaches_the_change_log(built: Any) -> None:
    rows = built.sql(
        f"""
        select source_table, op, is_snapshot, pk_string, after_image['name'],
            before_image['name']
        from {SCHEMA}.fct_cdc_changes
        """
    ).collect()
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
    assert {table: sorted(found, key=repr) for table, found in by_table.items()} == {
        spec.name: expected for spec in SPECS
    }


def test_every_tables_orphan_before_image_is_quarantined(built: Any) -> None:
    rows = built.sql(
        f"select source_table, landed_table, reason from {SCHEMA}.fct_cdc_quarantine"
    ).collect()
    assert sorted(tuple(row) for row in rows) == [
        (spec.name, f"{spec.name}__ct", "orphan before-image: no valid U row has this change_seq")
        for spec in SPECS
    ]


@pytest.mark.parametrize("view", UNION_VIEWS)
def test_union_views_stay_far_below_derbys_view_text_limit(built: Any, view: str) -> None:
    """The stored text grows by one short line a table (about 100 characters), not by the
    table's SQL (which took the old views past the limit at about nine tables)."""
    text = built.sql(f"show create table {SCHEMA}.{view}").collect()[0][0]
    assert len(text) < DERBY_VIEW_TEXT_LIMIT / 4, len(text)


def test_the_per_table_views_exist_for_every_table(built: Any) -> None:
    views = {row.viewName for row in built.sql(f"show views in {SCHEMA}").collect()}
    for spec in SPECS:
        assert {
            f"int_qlik_ct__{spec.name}_changes_paired",
            f"int_qlik_ct__{spec.name}_rows_quarantined",
        } <= views
