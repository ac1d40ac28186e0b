"""Twelve Qlik change tables on the embedded Derby metastore: the change log and the
quarantine build, with every table's rows in them.

Derby keeps a view's SQL text in at most 32,700 characters. The Qlik union views
(int_qlik_ct__changes_canonical, int_qlik_ct__rows_quarantined) used to hold each table's
pairing and judging SQL inline, about 3,400 characters a table with five columns, so a
project with more than about nine Qlik tables could not store them ("A truncation error was
encountered trying to shrink LONG VARCHAR"). Each table now has its own views
(int_qlik_ct__<table>_changes_paired, int_qlik_ct__<table>_rows_quarantined) and the union
views name them, one line a table.

Each table lands the tiny data of cdc_simulator.tiny_qlik_tables (Parquet): a full-load row
(key 1), an insert of key 2 (change 10), an update of key 2's name (change 20, a B and a U
row) and a before-image with no update (change 30: quarantined as an orphan).
"""

from __future__ import annotations

from typing import Any

import pytest

from cdc_simulator import tiny_qlik_tables
from cdc_simulator.project_copy import project_with_tables

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "many_qlik_tables"
TABLE_COUNT = 12
DERBY_VIEW_TEXT_LIMIT = 32_700
SPECS = tiny_qlik_tables.specs(TABLE_COUNT)
TABLES = tiny_qlik_tables.cdc_tables(SPECS)
UNION_VIEWS = ("int_qlik_ct__changes_canonical", "int_qlik_ct__rows_quarantined")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, spark: Any, run_dbt: Any) -> Any:
    work = tmp_path_factory.mktemp("many_qlik_tables")
    project = project_with_tables(work / "project", TABLES)
    root = work / "landing"
    tiny_qlik_tables.write_landing(root, SPECS)
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
