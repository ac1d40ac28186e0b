"""The shipped samples built as a user's project builds them (issue 27 item 2): a project made
by `cdc-dbt init` on a copy of the dbt package as the wheel carries it (`dbt_package_files`:
no generated file, no seed, none of the sample tables' own files), with the repository's
sample data as its own seeds, every sample table in its `cdc_tables`, the landing left at the
package's default (seeds) and the per-table files written by `cdc-dbt scaffold` into the
project. One `dbt build` of it, in schema `sample_pkg` (its raw tables in schemas of its own),
is compared with the repository's own sample build (conftest sample_build, schema `sample`):

- the build runs the same models and the same data and unit tests, every one passing as
  there (the repository's generated YAML names our generic tests as a user's does);
- the per-table files the scaffold wrote are the repository's but for the column
  descriptions the repository's were given by hand (which the scaffold keeps);
- every relation of the marts holds the same rows: each table's history, current state, live
  state and changes, the change log and the quarantine (but for `loaded_at`, the time of the
  build), the point-in-time views at the default point.

So every format runs through the package from a project of the user's own, and answers as
the repository's samples do; the `*_sample.py` modules prove those answers against hand-written
expectations.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from python_udfs import scaffold
from python_udfs.init_project import create_project
from python_udfs.package_files import dbt_package_files

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

PROJECT_DIR = Path(__file__).resolve().parents[2]
SCHEMA = "sample_pkg"
OURS = "sample"  # the repository's own sample build (conftest sample_build)
# columns that say when a row was written (loaded_at, change_loaded_at), not what it holds
BUILD_TIME_SUFFIX = "loaded_at"
# the raw relation a change was read from names its schema, which differs on purpose
RAW_PREFIX = f"{SCHEMA}_"
REPO_VARS = yaml.safe_load((PROJECT_DIR / "dbt_project.yml").read_text())["vars"]
SYSTEMS = list(REPO_VARS["cdc_source_systems"])


def make_user_project(root: Path) -> Path:
    """The samples as a user's project: init on a copy of the package, our seeds, our
    tables, scaffold."""
    package = root / "package"
    for relative in dbt_package_files(PROJECT_DIR):
        target = package / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(PROJECT_DIR / relative, target)
    project = root / "samples_of_mine"
    create_project(project, package_dir=package)
    settings = yaml.safe_load((project / "dbt_project.yml").read_text())
    variables = {
        name: value
        for name, value in settings["vars"].items()
        if not name.endswith(("_landing", "_landing_root"))  # seeds: the package's default
    }
    variables["cdc_tables"] = REPO_VARS["cdc_tables"]
    for system in SYSTEMS:  # raw tables of its own, beside the repository's sample build's
        variables[f"{system}_schema"] = f"{SCHEMA}_raw_{system}"
    settings["vars"] = variables
    settings["seeds"] = {
        settings["name"]: {
            "+file_format": "{{ var('file_format', 'parquet') }}",
            "+post-hook": "{{ cdc_history.cdc_record_seed_loaded() }}",
        }
    }
    (project / "dbt_project.yml").write_text(yaml.safe_dump(settings, sort_keys=False))
    shutil.copytree(PROJECT_DIR / "seeds", project / "seeds")
    # the hand-written unit tests pinned on the employees sample table go with its files
    unit_tests = Path("models/marts/employees/_employees__unit_tests.yml")
    (project / unit_tests).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(PROJECT_DIR / unit_tests, project / unit_tests)
    assert scaffold.main([], project) == 0
    return project


@pytest.fixture(scope="module")
def package_build(
    run_dbt: Any, sample_build: Any, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Any]:
    from dbt.cli.main import dbtRunner

    project = make_user_project(tmp_path_factory.mktemp("package_samples"))
    # `deps` takes no --target-path, which run_dbt passes with a project_dir
    deps = dbtRunner().invoke(
        ["deps", "--project-dir", str(project), "--profiles-dir", str(PROJECT_DIR / "profiles")]
    )
    assert deps.success, deps.exception
    return project, run_dbt(["build"], schema=SCHEMA, project_dir=project)


def outcomes(result: Any) -> dict[str, str]:
    """Each node's name and how it ended (pass, warn, success, ...): the same names in both
    projects (a generic test's name holds its namespace, cdc_history, in both)."""
    return {
        run.node.name: str(run.status)
        for run in result.result.results
        if run.node.resource_type in ("model", "test", "unit_test", "seed", "snapshot")
    }


def test_the_same_models_and_tests_end_the_same(
    sample_build: Any, package_build: tuple[Path, Any]
) -> None:
    ours, theirs = outcomes(sample_build), outcomes(package_build[1])
    assert len(ours) > 300
    assert set(theirs) == set(ours)
    assert {name: status for name, status in theirs.items() if ours[name] != status} == {}


def test_the_scaffold_writes_the_repositorys_files(package_build: tuple[Path, Any]) -> None:
    project = package_build[0]
    written = sorted(
        path.relative_to(project)
        for path in project.rglob("*")
        if path.is_file() and scaffold.is_generated(path)
    )
    ours = sorted(Path(name) for name in scaffold.generated_files_on_disk(PROJECT_DIR))
    assert written == ours
    differing = [
        str(name)
        for name in written
        if (project / name).read_text() != (PROJECT_DIR / name).read_text()
    ]
    # only YAML can differ, and only where our file's column descriptions were written by hand
    assert all(name.endswith(".yml") for name in differing), differing
    for name in differing:
        theirs = yaml.safe_load((project / name).read_text())
        mine = yaml.safe_load((PROJECT_DIR / name).read_text())
        assert _shape(theirs) == _shape(mine), name


def _shape(value: Any) -> Any:
    """A generated YAML file without what the scaffold keeps from the file it replaces:
    descriptions, and a column entry that holds nothing but one (a Qlik table's columns
    come from its landed DDL, so the repository lists them by hand)."""
    if isinstance(value, dict):
        return {k: _shape(v) for k, v in value.items() if k != "description"}
    if isinstance(value, list):
        return [
            _shape(item)
            for item in value
            if not (isinstance(item, dict) and set(item) == {"name", "description"})
        ]
    return value


def mart_relations(spark: Any) -> list[str]:
    names = [row.tableName for row in spark.sql(f"show tables in {OURS}").collect()]
    return sorted(name for name in names if name.startswith(("dim_", "fct_")))


def _comparable(field: Any, raw_prefix: str = "") -> str:
    """A column as the comparison reads it: a map as JSON (a set operation cannot compare
    maps; Spark writes the keys in the map's order, which both builds insert alike), the raw
    relations (OpenEdge names two, joined by ' + ') without this build's schema prefix."""
    name = f"`{field.name}`"
    if "map<" in field.dataType.simpleString():
        return f"to_json({name}) as {name}"
    if field.name == "raw_source" and raw_prefix:
        return f"regexp_replace({name}, '(^| ){raw_prefix}', '$1') as {name}"
    return name


def test_every_mart_holds_the_same_rows(spark: Any, package_build: tuple[Path, Any]) -> None:
    relations = mart_relations(spark)
    assert {"fct_cdc_changes", "fct_cdc_quarantine"} <= set(relations)
    assert {f"dim_{table}_history" for table in REPO_VARS["cdc_tables"]} <= set(relations)
    assert len(relations) >= 70
    differing = {}
    for name in relations:
        # a map cannot be compared by a set operation: as JSON, whose keys Spark writes in
        # the map's order (both builds insert them alike)
        fields = [
            field
            for field in spark.table(f"{OURS}.{name}").schema.fields
            if not field.name.endswith(BUILD_TIME_SUFFIX)
        ]
        mine = spark.table(f"{OURS}.{name}").selectExpr(*[_comparable(f) for f in fields])
        theirs = spark.table(f"{SCHEMA}.{name}").selectExpr(
            *[_comparable(f, RAW_PREFIX) for f in fields]
        )
        only_mine, only_theirs = mine.exceptAll(theirs).count(), theirs.exceptAll(mine).count()
        if only_mine or only_theirs:
            differing[name] = (only_mine, only_theirs)
    assert differing == {}
