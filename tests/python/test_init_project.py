"""`cdc-dbt init <dir>` (python_udfs/init_project.py): the files of a new project on the
cdc_history package, their YAML, the name rules, a folder that already holds a project, and
the commented cdc_tables examples (one per registered format, each with its format's
required keys).

Time budget: about a second (files in a temporary folder; no dbt, no Spark).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from python_udfs import cli, init_project
from python_udfs.init_project import InitError, create_project, project_name
from python_udfs.package_files import dbt_package_dir

PROJECT_DIR = Path(__file__).resolve().parents[2]
EXPECTED_FILES = [
    Path(".gitignore"),
    Path("README.md"),
    Path("dbt_project.yml"),
    Path("macros/cdc_history_overrides.sql"),
    Path("packages.yml"),
    Path("profiles/profiles.yml"),
]


def _registry() -> dict[str, Any]:
    project = yaml.safe_load((PROJECT_DIR / "dbt_project.yml").read_text(encoding="utf-8"))
    registry: dict[str, Any] = project["vars"]["cdc_source_systems"]
    return registry


@pytest.fixture(scope="module")
def created(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("init") / "My-CDC project"
    assert cli.main(["init", str(directory)]) == 0
    return directory


def _yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_the_files_are_created(created: Path) -> None:
    assert sorted(p.relative_to(created) for p in created.rglob("*") if p.is_file()) == (
        EXPECTED_FILES
    )
    assert (created / "profiles" / "profiles.yml").read_bytes() == (
        PROJECT_DIR / "profiles" / "profiles.yml"
    ).read_bytes()
    gitignored = (created / ".gitignore").read_text().split()
    assert gitignored == ["target/", "logs/", "dbt_packages/", ".local/"]


def test_the_project_file(created: Path) -> None:
    project = _yaml(created / "dbt_project.yml")
    assert project["name"] == "my_cdc_project"
    assert project["profile"] == "cdc_history"
    assert project["flags"] == {
        "send_anonymous_usage_stats": False,
        "require_explicit_package_overrides_for_builtin_materializations": False,
        "require_ref_searches_node_package_before_root": True,
    }
    assert project["dispatch"] == [
        {"macro_namespace": "dbt", "search_order": ["my_cdc_project", "cdc_history", "dbt"]}
    ]
    variables = project["vars"]
    assert variables["cdc_tables"] == {}
    for source_system in _registry():
        assert variables[f"{source_system}_landing"] == "files"
        root = Path(variables[f"{source_system}_landing_root"])
        assert root == created.resolve() / "landing" / source_system
    # the package's folder defaults, for the scaffolded models, and the storage format of the
    # package's own models set again here, where dbt renders it with this project's vars
    # (test_file_formats.py: a package's own setting ignores them)
    package = _yaml(PROJECT_DIR / "dbt_project.yml")["models"]["cdc_history"]
    assert project["models"] == {
        "cdc_history": {"+file_format": package["+file_format"]},
        "my_cdc_project": package,
    }


def test_packages_points_at_the_package(created: Path) -> None:
    packages = _yaml(created / "packages.yml")
    (entry,) = packages["packages"]
    path = Path(entry["local"])
    assert path.is_absolute() and path == dbt_package_dir()
    assert (path / "dbt_project.yml").is_file()


def test_the_overrides_wrap_every_package_materialization(created: Path) -> None:
    text = (created / "macros" / "cdc_history_overrides.sql").read_text()
    assert "do not edit" in text
    package = "\n".join(
        path.read_text() for path in sorted((PROJECT_DIR / "macros").rglob("*.sql"))
    )
    declared = re.findall(r"\{%-?\s*materialization\s+([^%]+?)\s*-?%\}", package)
    wrapped = re.findall(r"\{%-?\s*materialization\s+([^%]+?)\s*-?%\}", text)
    # the same name, adapter and languages as the package's own
    assert sorted(wrapped) == sorted(declared)
    for header in declared:
        name = header.split(",")[0]
        assert f"return(cdc_history.materialization_{name}_spark())" in text
    assert "return(cdc_history.generate_schema_name(custom_schema_name, node))" in text
    assert "{% macro generate_schema_name(custom_schema_name, node) -%}" in text


def test_the_readme_names_the_steps_and_targets(created: Path) -> None:
    text = (created / "README.md").read_text()
    for command in ("cdc-dbt deps", "cdc-dbt scaffold", "cdc-dbt build", "_as_of("):
        assert command in text
    for target in ("local", "postgres", "cluster", "thrift"):
        assert f"`{target}`" in text
    assert "## Upgrading the package" in text


def _commented_tables(text: str) -> dict[str, Any]:
    """The commented `# cdc_tables:` block of vars, uncommented and read as YAML."""
    lines = text.splitlines()
    start = lines.index("  # cdc_tables:")
    block = []
    for line in lines[start:]:
        if not line.startswith("  # "):
            break
        block.append("  " + line[len("  # ") :])
    tables: dict[str, Any] = yaml.safe_load("\n".join(block))["cdc_tables"]
    return tables


def test_the_commented_examples_cover_every_format(created: Path) -> None:
    registry = _registry()
    tables = _commented_tables((created / "dbt_project.yml").read_text())
    by_format = {entry["source_system"]: (table, entry) for table, entry in tables.items()}
    assert sorted(by_format) == sorted(registry)
    assert len(tables) == len(registry)
    for source_system, (table, entry) in by_format.items():
        keys = registry[source_system]
        assert set(keys["required_keys"]) <= set(entry), (table, keys["required_keys"])
        assert set(entry) <= set(keys["required_keys"]) | set(keys["optional_keys"]), table
    # the sample project's first table of a format, as it is there
    samples = _yaml(PROJECT_DIR / "samples" / "dbt_project.yml")["vars"]["cdc_tables"]
    assert tables["employees"] == samples["employees"]
    assert tables["usr"] == samples["usr"]


@pytest.mark.parametrize(
    ("folder", "name"),
    [
        pytest.param("sales", "sales", id="plain"),
        pytest.param("My-CDC project", "my_cdc_project", id="case-and-punctuation"),
        pytest.param("cdc.v2", "cdc_v2", id="dot"),
        pytest.param("Zürich", "z_rich", id="non-ascii"),
    ],
)
def test_the_project_name(tmp_path: Path, folder: str, name: str) -> None:
    assert project_name(tmp_path / folder) == name


@pytest.mark.parametrize(
    ("folder", "message"),
    [
        pytest.param("2024_cdc", "does not start with a letter", id="digit"),
        pytest.param("_cdc", "does not start with a letter", id="underscore"),
        pytest.param("cdc_history", "is taken by dbt or the package", id="the-package"),
        pytest.param("dbt", "is taken by dbt or the package", id="dbt"),
    ],
)
def test_a_name_that_cannot_be_a_project(tmp_path: Path, folder: str, message: str) -> None:
    with pytest.raises(InitError, match=message):
        project_name(tmp_path / folder)
    assert init_project.main([str(tmp_path / folder)]) == 2
    assert not (tmp_path / folder).exists()


def test_an_existing_project_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    directory = tmp_path / "sales"
    directory.mkdir()
    (directory / "dbt_project.yml").write_text("name: mine\n")
    assert cli.main(["init", str(directory)]) == 2
    assert "already holds a dbt project" in capsys.readouterr().err
    assert (directory / "dbt_project.yml").read_text() == "name: mine\n"
    assert sorted(p.name for p in directory.iterdir()) == ["dbt_project.yml"]


def test_a_readme_of_yours_is_kept(tmp_path: Path) -> None:
    directory = tmp_path / "sales"
    directory.mkdir()
    (directory / "README.md").write_text("mine\n")
    written = create_project(directory)
    assert Path("README.md") not in written
    assert (directory / "README.md").read_text() == "mine\n"
    assert (directory / "dbt_project.yml").is_file()


def test_a_clashing_file_is_refused(tmp_path: Path) -> None:
    directory = tmp_path / "sales"
    (directory / "macros").mkdir(parents=True)
    (directory / "macros" / "cdc_history_overrides.sql").write_text("mine\n")
    with pytest.raises(InitError, match="writes only new files"):
        create_project(directory)
    assert not (directory / "dbt_project.yml").exists()


def test_values_are_quoted(tmp_path: Path) -> None:
    """A folder path YAML would misread (a colon and space, a hash, quotes) survives."""
    directory = tmp_path / "odd: #path 'x\"" / "sales"
    create_project(directory)
    project = _yaml(directory / "dbt_project.yml")
    assert project["vars"]["qlik_ct_landing_root"] == str(directory / "landing" / "qlik_ct")
    assert project["name"] == "sales"
