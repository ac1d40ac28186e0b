"""Var `file_format` (parquet, delta, iceberg) reaches every model and seed, and every
incremental model's strategy is one dbt-spark accepts for that format.

From `dbt parse` in-process with `--vars '{file_format: <format>}'` (no Spark session: the
Delta and Iceberg jars cannot be fetched here, so nothing is written in those formats).
dbt-spark checks a strategy only when the incremental materialization runs
(`dbt_spark_validate_get_incremental_strategy`); its rules are read here from the installed
package's validate.sql, so a newer dbt-spark that tightens them fails this test instead of the
user's first Delta build.

Parsed in the sample project (samples/), whose own dbt_project.yml sets the format of the
package's models: dbt renders a package's dbt_project.yml without the root project's vars,
so the package's own `+file_format` setting alone left its models Parquet whatever the run
asked (found when the samples moved out of the package; `cdc-dbt init` writes the same
setting into a user's project).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from dbt_parse import parse_project

from cdc_simulator.project_copy import SAMPLES_DIR, install_package

pytestmark = pytest.mark.parse

PROJECT_DIR = Path(__file__).resolve().parents[2]
# the package's nodes and the sample project's (its seeds and each table's generated models)
PACKAGES = ("cdc_history", "cdc_samples")
FORMATS = ("parquet", "delta", "iceberg")


def validate_sql() -> str:
    import dbt.include.spark

    [root] = dbt.include.spark.__path__
    path = Path(root) / "macros" / "materializations" / "incremental" / "validate.sql"
    return path.read_text()


def _list_after(text: str, anchor: str) -> list[str]:
    """The quoted names of the first `[...]` after `anchor` in dbt-spark's macro."""
    match = re.search(re.escape(anchor) + r"\s*\[([^\]]*)\]", text)
    assert match, f"dbt-spark's validate.sql has no {anchor!r} list: the rules changed"
    return re.findall(r"'([a-z_]+)'", match.group(1))


def spark_rules() -> dict[str, list[str]]:
    """dbt-spark's own lists: accepted formats and strategies, the formats merge needs, and
    the strategies refused on an ODBC endpoint."""
    text = validate_sql()
    return {
        "formats": _list_after(text, "set accepted_formats ="),
        "strategies": _list_after(text, "if raw_strategy not in"),
        "merge_formats": _list_after(text, "raw_strategy == 'merge' and file_format not in"),
        "endpoint_refused": _list_after(text, "if raw_strategy in"),
    }


def accepted(strategy: str, file_format: str, rules: dict[str, list[str]]) -> bool:
    """What dbt_spark_validate_get_incremental_strategy accepts on a session or thrift
    connection (the project's targets; none is an ODBC endpoint)."""
    if file_format not in rules["formats"] or strategy not in rules["strategies"]:
        return False
    return strategy != "merge" or file_format in rules["merge_formats"]


def test_the_rules_are_read_from_dbt_spark() -> None:
    rules = spark_rules()
    assert {"parquet", "delta", "iceberg"} <= set(rules["formats"])
    assert {"append", "insert_overwrite", "merge"} <= set(rules["strategies"])
    assert "parquet" not in rules["merge_formats"]
    assert accepted("merge", "delta", rules) and not accepted("merge", "parquet", rules)
    assert "insert_overwrite" in rules["endpoint_refused"]


@pytest.fixture(scope="module", params=FORMATS)
def parsed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """(format, manifest) of `dbt parse --vars '{file_format: <format>}'` of the sample
    project."""
    install_package(SAMPLES_DIR)
    target = tmp_path_factory.mktemp(f"parse_{request.param}")
    return request.param, parse_project(SAMPLES_DIR, target, {"file_format": request.param})


def _nodes(manifest: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {
        node["name"]: node
        for node in manifest["nodes"].values()
        if node["resource_type"] == kind
        and node["package_name"] in PACKAGES
        and node["config"].get("enabled", True)
    }


def test_every_model_and_seed_takes_the_format(parsed: Any) -> None:
    file_format, manifest = parsed
    nodes = {**_nodes(manifest, "model"), **_nodes(manifest, "seed")}
    assert nodes
    other = {name: node["config"].get("file_format") for name, node in nodes.items()}
    assert {name: value for name, value in other.items() if value != file_format} == {}


def test_every_incremental_model_uses_a_strategy_dbt_spark_accepts(parsed: Any) -> None:
    file_format, manifest = parsed
    rules = spark_rules()
    incremental = {
        name: node["config"].get("incremental_strategy") or "append"
        for name, node in _nodes(manifest, "model").items()
        if node["config"]["materialized"] == "incremental"
    }
    # staging, images and canonical models append; the histories overwrite partitions
    assert {name for name in incremental if name.startswith("stg_")}
    assert {name for name in incremental if name.endswith("_history")}
    refused = {
        name: strategy
        for name, strategy in incremental.items()
        if not accepted(strategy, file_format, rules)
    }
    assert refused == {}, f"dbt-spark refuses these strategies for {file_format}"
