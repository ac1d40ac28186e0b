"""The sample project (samples/) through the dbt package as the wheel carries it (issue 27
item 2): the repository's samples are a project that uses the package, through a link to the
repository (`cdc-dbt deps` of `local: ..`); here the same project gets the package's files as
the wheel holds them (`dbt_package_files`: no generated file, no sample data, no Python
test) instead, and `dbt parse` finds the same project: every node (models, data and unit
tests, seeds), each with the same code, configuration and inputs, the same disabled nodes
and the same macros. So what every test that builds the samples proves (the sample build,
the proofs and scenarios of every format, all through the package) holds for a user who
installs the wheel.

Two `dbt parse` runs in-process, no Spark (about 12 s each on the AMD EPYC).
Time budget: 60 s.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from dbt_parse import parse_project

from cdc_simulator.project_copy import (
    PACKAGE_NAME,
    SAMPLES_DIR,
    copy_package,
    install_package,
)

pytestmark = pytest.mark.parse

# what the sample project holds of its own (its generated output and link aside)
SAMPLE_FILES = ("dbt_project.yml", "packages.yml", "package-lock.yml")
SAMPLE_FOLDERS = ("models", "macros", "seeds")


def with_wheel_package(dest: Path) -> Path:
    """A copy of the sample project whose dbt_packages/cdc_history holds the wheel's files."""
    for name in SAMPLE_FILES:
        if (SAMPLES_DIR / name).is_file():
            shutil.copy2(SAMPLES_DIR / name, dest / name)
    for folder in SAMPLE_FOLDERS:
        shutil.copytree(SAMPLES_DIR / folder, dest / folder)
    copy_package(dest)
    return dest


def shape(manifest: dict[str, Any]) -> dict[str, Any]:
    """What a build runs: each node's code, configuration and inputs; the disabled nodes; the
    macros by package and name."""
    nodes = {
        unique_id: (
            json.dumps(node.get("checksum"), sort_keys=True),
            node.get("original_file_path"),
            json.dumps(node.get("config"), sort_keys=True, default=str),
            sorted((node.get("depends_on") or {}).get("nodes") or []),
        )
        for unique_id, node in {**manifest["nodes"], **manifest.get("unit_tests", {})}.items()
    }
    return {
        "nodes": nodes,
        "disabled": sorted(manifest["disabled"]),
        "macros": sorted(manifest["macros"]),
        "docs": sorted(manifest["docs"]),
    }


@pytest.fixture(scope="module")
def manifests(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    install_package(SAMPLES_DIR)
    linked = parse_project(SAMPLES_DIR, tmp_path_factory.mktemp("linked"))
    copy = with_wheel_package(tmp_path_factory.mktemp("wheel_package"))
    return linked, parse_project(copy, tmp_path_factory.mktemp("wheel_target"))


def test_the_wheels_package_gives_the_same_project(
    manifests: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    linked, wheel = (shape(manifest) for manifest in manifests)
    assert len(linked["nodes"]) > 300
    assert {
        f"model.{PACKAGE_NAME}.fct_cdc_changes",
        "model.cdc_samples.dim_employees_history",
    } <= set(linked["nodes"])
    assert sorted(wheel["nodes"]) == sorted(linked["nodes"])
    differing = sorted(
        name for name in linked["nodes"] if wheel["nodes"][name] != linked["nodes"][name]
    )
    assert differing == []
    assert wheel["disabled"] == linked["disabled"]
    assert wheel["macros"] == linked["macros"]
    assert wheel["docs"] == linked["docs"]


def test_every_format_has_nodes_from_both_projects(
    manifests: tuple[dict[str, Any], dict[str, Any]],
) -> None:
    """The package's format models and the sample project's per-table models, for every
    format the samples configure."""
    nodes = manifests[0]["nodes"].values()
    packages = {node["package_name"] for node in nodes if node["resource_type"] == "model"}
    assert packages == {PACKAGE_NAME, "cdc_samples"}
    canonical = {
        node["name"]
        for node in nodes
        if node["resource_type"] == "model" and node["name"].endswith("__changes_canonical")
    }
    assert canonical == {
        "int_qlik_ct__changes_canonical",
        "int_idm_jdbc__changes_canonical",
        "int_openedge_cdc__changes_canonical",
        "int_qlik_kafka__changes_canonical",
        "int_goldengate__changes_canonical",
        "int_full_snapshot__changes_canonical",
    }
