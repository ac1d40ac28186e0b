"""A new source format is its own folders plus one entry of the format registry (issue 27,
docs/adding-a-source-format.md), proven by adding one to a copy of the sample project, a
project that uses the package: the package itself is not touched.

`toyfeed`, a three-event feed (tests/python/data/toy_format/: its seed, its staging, canonical,
quarantine and transaction-boundary models, its `toyfeed_change_images` macro, calling the
package's macros as a project of the user's does, `cdc_history.<macro>`), is copied into a
project copy whose registry (var cdc_source_systems: the package's entries and one more) gains
one entry (its hooks and its one setting, `feed`, the log's source_instance) and whose
cdc_tables holds one table of it, `gadgets`, which `cdc-dbt scaffold` gives
the shared per-table models (cdc_simulator/project_copy.py). One `dbt build` (models, seeds and
data tests, the format's column contracts among them) and one `dbt run` with nothing new. Then:
the shared marts hold the feed's changes (the change log, the typed images, the history, the
current state, the point in time at two points, the consistent point in time), the second run
logged nothing twice, and the format's name is in no file of the copy or of the package but the
format's own folders, its registry entry, the table's source_system and the files the scaffold
generated for the table.

Time budget: 90 s (a build of about 40 nodes and a run, in a project copy: 30 s alone).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from cdc_simulator.project_copy import project_with_tables
from python_udfs.package_files import dbt_package_files
from python_udfs.scaffold import is_generated

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "toy_format"
FORMAT = "toyfeed"
FORMAT_FOLDER = Path(__file__).resolve().parent / "data" / "toy_format"
PROJECT_REGISTRY: dict[str, Any] = yaml.safe_load(
    (Path(__file__).resolve().parents[2] / "dbt_project.yml").read_text()
)["vars"]["cdc_source_systems"]
ENTRY = {
    "images_complete": True,
    "transactions_marked": False,
    "required_keys": ["source_system", "key_columns", "columns"],
    "optional_keys": ["source_schema", "images_complete"],
    "hooks": ["change_images"],
    # the format's one setting, read by its models as cdc_var('toyfeed_feed')
    "settings": {"feed": "shop_feed"},
}
TABLES = {
    "gadgets": {
        "source_system": FORMAT,
        "source_schema": "SHOP",
        "key_columns": ["id"],
        "columns": {"id": "int", "name": "string"},
    }
}
# what the project copy holds that is not the project's code (the package: read on its own)
NOT_CODE = ("target", "logs", "dbt_packages")
PROJECT_DIR = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, spark: Any, run_dbt: Any) -> Any:
    """The copy with the format added, built, then run again with nothing new."""
    project = project_with_tables(
        tmp_path_factory.mktemp("toy_format") / "project",
        TABLES,
        extra_vars={"cdc_source_systems": {**PROJECT_REGISTRY, FORMAT: ENTRY}},
    )
    shutil.copytree(FORMAT_FOLDER, project, dirs_exist_ok=True)
    # the project's unit tests prove its shared code, not the format: left out
    build = run_dbt(
        ["build", "--exclude-resource-type", "unit_test"], schema=SCHEMA, project_dir=project
    )
    log_before = rows(spark, "select change_id from {s}.fct_cdc_changes")
    rerun = run_dbt(["run"], schema=SCHEMA, project_dir=project)
    return spark, project, build, rerun, log_before


def rows(spark: Any, query: str) -> list[tuple[Any, ...]]:
    """The query's rows, sorted; `{s}` in it stands for the scenario's schema."""
    return sorted(tuple(row) for row in spark.sql(query.format(s=SCHEMA)).collect())


def test_the_build_runs_the_formats_models_and_tests(built: Any) -> None:
    build = built[2]
    names = {result.node.name for result in build.result.results}
    assert {
        "toyfeed_events",
        "stg_toyfeed__events",
        "int_toyfeed__changes_canonical",
        "int_toyfeed__rows_quarantined",
        "int_toyfeed__transaction_boundaries",
        "int_gadgets__change_images",
        "dim_gadgets_history",
        "dim_gadgets_current",
    } <= names
    contracts = [
        name for name in names if name.startswith("cdc_history_column_contract_int_toyfeed")
    ]
    assert len(contracts) == 2, contracts


def test_the_change_log_holds_the_feeds_three_changes(built: Any) -> None:
    assert rows(
        built[0],
        "select source_system, source_instance, source_table, op, pk_string, order_key,"
        " after_image['name'] from {s}.fct_cdc_changes",
    ) == [
        (FORMAT, "shop_feed", "gadgets", "I", "id=1", "00000000000000000001", "Ann"),
        (FORMAT, "shop_feed", "gadgets", "I", "id=2", "00000000000000000003", "Bo"),
        (FORMAT, "shop_feed", "gadgets", "U", "id=1", "00000000000000000002", "Anna"),
    ]
    assert rows(built[0], "select * from {s}.fct_cdc_quarantine") == []


def test_the_history_and_current_state_follow_the_feed(built: Any) -> None:
    assert rows(
        built[0],
        "select id, name, is_current, valid_from_order_key, valid_to_order_key"
        " from {s}.dim_gadgets_history",
    ) == [
        (1, "Ann", False, "00000000000000000001", "00000000000000000002"),
        (1, "Anna", True, "00000000000000000002", None),
        (2, "Bo", True, "00000000000000000003", None),
    ]
    assert rows(built[0], "select id, name from {s}.dim_gadgets_current") == [
        (1, "Anna"),
        (2, "Bo"),
    ]


@pytest.mark.parametrize(
    ("point", "expected"),
    [
        ("latest", [(1, "Anna"), (2, "Bo")]),
        ("2024-03-01 10:30:00", [(1, "Ann")]),
        ("2", [(1, "Anna")]),
    ],
)
def test_the_point_in_time_functions_answer(
    built: Any, point: str, expected: list[tuple[Any, ...]]
) -> None:
    for function in ("gadgets_as_of", "gadgets_as_of_consistent"):
        assert rows(built[0], f"select id, name from {{s}}.{function}('{point}')") == expected


def test_a_run_with_nothing_new_logs_nothing_twice(built: Any) -> None:
    spark, _, _, rerun, log_before = built
    assert rows(spark, "select change_id from {s}.fct_cdc_changes") == log_before
    messages = {result.node.name: result.message for result in rerun.result.results}
    assert messages["int_gadgets__change_images"] == "nothing new"


def test_the_formats_name_is_in_no_shared_file(built: Any) -> None:
    """Every file of the copy but the format's own folders and the scaffold's per-table files,
    and every file of the package: dbt_project.yml holds the name only in its registry entry
    and the table's source_system; no other file holds it at all (the package's macros,
    models, tests and templates, the copy's seeds and macros)."""
    project = built[1]
    own = {path.relative_to(FORMAT_FOLDER) for path in FORMAT_FOLDER.rglob("*") if path.is_file()}
    holding, scanned = [], 0
    for path in sorted(project.rglob("*")):
        relative = path.relative_to(project)
        if not path.is_file() or relative.parts[0] in NOT_CODE or relative in own:
            continue
        if relative == Path("dbt_project.yml") or is_generated(path):
            continue
        scanned += 1
        if FORMAT in path.read_text(encoding="utf-8", errors="replace"):
            holding.append(str(relative))
    package = project / "dbt_packages" / "cdc_history"
    package_files = dbt_package_files(package)
    for relative in package_files:
        if FORMAT in (package / relative).read_text(encoding="utf-8", errors="replace"):
            holding.append(f"dbt_packages/cdc_history/{relative}")
    assert holding == []
    # every shared macro, model, test and template was read
    macros = [name for name in package_files if name.parts[0] == "macros"]
    assert len(package_files) > len(macros) > 100, len(package_files)
    assert scanned > 10, scanned  # the copy's seeds, unit tests and macros
    project_vars = yaml.safe_load((project / "dbt_project.yml").read_text())["vars"]
    assert FORMAT in project_vars.pop("cdc_source_systems")
    assert {entry["source_system"] for entry in project_vars.pop("cdc_tables").values()} == {FORMAT}
    assert FORMAT not in yaml.safe_dump(project_vars)
