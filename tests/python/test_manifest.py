"""The project's shape, from `dbt parse` of the sample project (samples/, a user of the
cdc_history package) run in-process (no Spark session, a few seconds): every configured
table has its models and their primary-key and validity tests, no model of either project
skips a layer, and the generated per-table files are up to date (`cdc-dbt scaffold --check`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from dbt_parse import parse_project

from cdc_simulator.project_copy import SAMPLES_DIR, install_package
from python_udfs import cli, scaffold

pytestmark = pytest.mark.parse

PROJECT_DIR = Path(__file__).resolve().parents[2]
# the package's models and the sample project's (each table's generated ones)
PACKAGES = ("cdc_history", "cdc_samples")
VARIABLES = scaffold.load_vars(SAMPLES_DIR)
TABLES: dict[str, Mapping[str, Any]] = scaffold.configured_tables(VARIABLES)

# The models a table gets from its source format, besides the four every table gets.
FORMAT_MODELS: dict[str, Callable[[str, Mapping[str, Any]], list[str]]] = {
    "qlik_ct": lambda name, _config: [f"stg_qlik_ct__{name}", f"stg_qlik_ct__{name}_baseline"],
    # one staging model for every topic, then the format's own steps (no per-table model)
    "qlik_kafka": lambda _name, _config: [
        "stg_qlik_kafka__messages",
        "int_qlik_kafka__metadata_versions",
        "int_qlik_kafka__messages_decoded",
        "int_qlik_kafka__changes_canonical",
    ],
    "idm_jdbc": lambda _name, config: (
        [f"stg_idm_jdbc__{config['snapshot_table']}"] if config.get("snapshot_table") else []
    ),
    "openedge_cdc": lambda name, _config: [f"stg_openedge_cdc__{name}"],
    # both landings staged once for every table, then the format's own steps
    "goldengate": lambda _name, _config: [
        "stg_goldengate__trail_records",
        "stg_goldengate__json_messages",
        "int_goldengate__trail_chunks_reassembled",
        "int_goldengate__trail_records_sequenced",
        "int_goldengate__changes_judged",
        "int_goldengate__changes_logged",
        "int_goldengate__changes_canonical",
    ],
    # one staging model per table, then the format's own steps
    "full_snapshot": lambda name, _config: [
        f"stg_full_snapshot__{name}",
        "int_full_snapshot__snapshots",
        "int_full_snapshot__changes_canonical",
    ],
}

Manifest = dict[str, Any]


@pytest.fixture(scope="module")
def parse_warnings() -> list[str]:
    """The warnings dbt gives while parsing the sample project (filled by `manifest`)."""
    return []


@pytest.fixture(scope="module")
def manifest(tmp_path_factory: pytest.TempPathFactory, parse_warnings: list[str]) -> Manifest:
    """target/manifest.json of `dbt parse` into a temporary target path."""
    install_package(SAMPLES_DIR)
    return parse_project(
        SAMPLES_DIR, tmp_path_factory.mktemp("parse_target"), warnings=parse_warnings
    )


def test_a_parse_warns_of_nothing(manifest: Manifest, parse_warnings: list[str]) -> None:
    """A user's project parses without a warning: every command prints what parsing warns
    of. The package's models and tests ref the project's per-table models, which dbt warned
    of once a ref (45 lines a parse) until the project set
    require_ref_searches_node_package_before_root (samples/dbt_project.yml, `cdc-dbt init`)."""
    assert manifest["nodes"]
    assert parse_warnings == []


def _models(manifest: Manifest) -> dict[str, dict[str, Any]]:
    """The enabled models of the package and the sample project, by name."""
    return {
        node["name"]: node
        for node in manifest["nodes"].values()
        if node["resource_type"] == "model" and node["package_name"] in PACKAGES
    }


def _tests_on(manifest: Manifest, model: str) -> list[dict[str, Any]]:
    """Generic tests attached to a model: [{name, column, kwargs}]."""
    unique_id = _models(manifest)[model]["unique_id"]
    found = []
    for node in manifest["nodes"].values():
        if node["resource_type"] != "test" or node.get("attached_node") != unique_id:
            continue
        metadata = node.get("test_metadata") or {}
        found.append(
            {
                "name": metadata.get("name"),
                "column": node.get("column_name"),
                # the arguments as written (dbt adds the tested model as `model`)
                "kwargs": {
                    key: value
                    for key, value in (metadata.get("kwargs") or {}).items()
                    if key != "model"
                },
            }
        )
    return found


# ---------- every configured table is complete


@pytest.mark.parametrize("table", list(TABLES))
def test_every_table_has_its_models(manifest: Manifest, table: str) -> None:
    config = TABLES[table]
    expected = [
        f"int_{table}__change_images",
        f"dim_{table}_history",
        f"dim_{table}_current",
        f"dim_{table}_as_of",
        f"dim_{table}_changes",
        f"dim_{table}_live",
        *FORMAT_MODELS[config["source_system"]](table, config),
    ]
    models = _models(manifest)
    missing = [name for name in expected if name not in models]
    assert not missing, f"{table}: no enabled model {missing}"
    for name in expected:
        assert models[name]["description"].strip(), f"{name} has no description"


def test_every_generated_model_is_parsed(manifest: Manifest) -> None:
    generated = [
        Path(file.path).stem
        for file in scaffold.plan(SAMPLES_DIR, VARIABLES)
        if file.path.endswith(".sql")
    ]
    models = _models(manifest)
    assert generated
    assert [name for name in generated if name not in models] == []


@pytest.mark.parametrize("table", list(TABLES))
def test_history_has_its_key_and_validity_tests(manifest: Manifest, table: str) -> None:
    tests = _tests_on(manifest, f"dim_{table}_history")
    # validity_is_contiguous checks the key too (never NULL, no two versions starting
    # together): no primary_key test beside it
    assert [test["name"] for test in tests] == ["validity_is_contiguous"]
    contiguous = [test["kwargs"] for test in tests if test["name"] == "validity_is_contiguous"]
    assert contiguous, f"dim_{table}_history has no validity_is_contiguous test"
    assert contiguous[0]["partition_by"] == "pk_string"


@pytest.mark.parametrize("table", list(TABLES))
def test_current_state_has_its_primary_key_tests(manifest: Manifest, table: str) -> None:
    tests = _tests_on(manifest, f"dim_{table}_current")
    # the point in time at 'latest' against the current state and the live view, and the
    # current state's key (unique, never NULL), in one query
    assert [(test["name"], test["kwargs"]) for test in tests] == [
        ("matches_point_in_time", {"table_name": table, "also": [f"dim_{table}_live"]})
    ]
    assert not _tests_on(manifest, f"dim_{table}_live")


@pytest.mark.parametrize("table", list(TABLES))
def test_the_images_and_the_as_of_view_have_their_key_tests(manifest: Manifest, table: str) -> None:
    images = _tests_on(manifest, f"int_{table}__change_images")
    assert {
        "columns": ["change_id", "image_oper", "pk_string"],
        "not_null": ["change_id"],
    } in [test["kwargs"] for test in images if test["name"] == "primary_key"]
    assert {"columns": "cdc_table_image_columns", "table_name": table} in [
        test["kwargs"] for test in images if test["name"] == "column_contract"
    ]
    # the as-of view's key test is off at the default point, 'latest' (the current state's
    # tests prove it there), and on at any other point
    assert not _tests_on(manifest, f"dim_{table}_as_of")
    disabled = [
        node
        for nodes in manifest["disabled"].values()
        for node in nodes
        if node.get("attached_node") == _models(manifest)[f"dim_{table}_as_of"]["unique_id"]
    ]
    assert [(node["test_metadata"]["name"], node["config"]["enabled"]) for node in disabled] == [
        ("primary_key", False)
    ]


# ---------- layers: stg_ -> int_ -> fct_/dim_


def _upstream(manifest: Manifest, node: dict[str, Any]) -> list[str]:
    """What a model depends on, as `source:<name>`, `seed:<name>` or the model's name."""
    found = []
    for unique_id in node["depends_on"]["nodes"]:
        kind = unique_id.split(".", 1)[0]
        if kind == "model":
            found.append(manifest["nodes"][unique_id]["name"])
        elif kind == "source":
            found.append("source:" + ".".join(unique_id.split(".")[2:]))
        else:
            found.append(f"{kind}:{unique_id.rsplit('.', 1)[-1]}")
    return found


def _layer_violations(manifest: Manifest, prefixes: tuple[str, ...], allowed: Any) -> list[str]:
    violations = []
    for name, node in sorted(_models(manifest).items()):
        if not name.startswith(prefixes):
            continue
        wrong = [parent for parent in _upstream(manifest, node) if not allowed(parent)]
        if wrong:
            violations.append(f"{name} <- {', '.join(wrong)}")
    return violations


def test_staging_reads_only_sources_and_seeds(manifest: Manifest) -> None:
    """Staging reads sources and seeds, and the file list of its own format's landing
    (stg_<system>__landed_files: which landed files may be read, docs/landing-and-quarantine.md,
    "Landing files")."""
    violations = []
    for name, node in sorted(_models(manifest).items()):
        if not name.startswith("stg_"):
            continue
        system = name.removeprefix("stg_").split("__")[0]
        wrong = [
            parent
            for parent in _upstream(manifest, node)
            if not parent.startswith(("source:", "seed:"))
            and (parent != f"stg_{system}__landed_files" or name == parent)
        ]
        if wrong:
            violations.append(f"{name} <- {', '.join(wrong)}")
    assert violations == []


def test_intermediate_reads_only_staging_and_intermediate(manifest: Manifest) -> None:
    violations = _layer_violations(
        manifest, ("int_",), lambda parent: parent.startswith(("stg_", "int_"))
    )
    assert violations == []


def test_marts_never_read_sources_or_staging(manifest: Manifest) -> None:
    violations = _layer_violations(
        manifest,
        ("fct_", "dim_"),
        lambda parent: not parent.startswith(("source:", "stg_")),
    )
    assert violations == []


def _expected_folder(name: str, systems: set[str]) -> str | None:
    """The folder a model belongs in, by its name (STYLE.md "Where things go")."""
    if name.startswith("stg_"):
        return f"models/staging/{name.removeprefix('stg_').split('__')[0]}/"
    if name.startswith("int_") and name.endswith("__change_images"):
        return "models/intermediate/change_images/"
    if name.startswith("int_"):
        system = name.removeprefix("int_").split("__")[0]
        return f"models/intermediate/{system}/" if system in systems else None
    if name.startswith("fct_"):
        return "models/marts/cdc/" if name.startswith("fct_cdc_") else "models/marts/"
    if name.startswith("dim_"):
        table = next(
            (
                table
                for table in sorted(TABLES, key=len, reverse=True)
                if name.startswith(f"dim_{table}_")
            ),
            None,
        )
        return f"models/marts/{table}/" if table else None
    return None


def test_every_model_sits_in_its_layers_folder(manifest: Manifest) -> None:
    """Prefix and folder agree: staging per source system, the format steps in
    intermediate/<source_system>/, every table's declared images in
    intermediate/change_images/, the change log in marts/cdc/, a table's state models in
    marts/<table>/."""
    systems = set(VARIABLES["cdc_source_systems"])
    wrong = []
    for name, node in sorted(_models(manifest).items()):
        folder = _expected_folder(name, systems)
        path = node["original_file_path"]
        if folder is None or not path.startswith(folder):
            wrong.append(f"{name}: {path} (expected under {folder})")
    assert wrong == []


# ---------- the generated files are up to date


def test_scaffold_check_passes_on_the_repository(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample project's generated files are current, and the package (the repository
    root, whose cdc_tables is empty) holds none."""
    monkeypatch.setenv("CDC_PROJECT_DIR", str(SAMPLES_DIR))
    assert cli.main(["scaffold", "--check"]) == 0, "cd samples; run `cdc-dbt scaffold` and commit"
    monkeypatch.setenv("CDC_PROJECT_DIR", str(PROJECT_DIR))
    assert cli.main(["scaffold", "--check"]) == 0, "the package holds generated files"
    assert scaffold.generated_files_on_disk(PROJECT_DIR) == []


def _selected(manifest: Manifest, selector: str) -> set[str]:
    """The enabled models a selector of the two forms the benchmarks use picks, as dbt picks
    them: `path:<folder>` is resolved against the running project, so a folder the sample
    project lacks selects nothing, and one it has selects every node under that relative
    path, the package's too (`cdc-dbt ls` shows both); a dotted fqn prefix
    (`cdc_history.staging.<format>`); a bare name picks that model."""
    picked = set()
    for node in _models(manifest).values():
        if selector.startswith("path:"):
            folder = selector[len("path:") :]
            if (SAMPLES_DIR / folder).is_dir() and node["original_file_path"].startswith(
                folder + "/"
            ):
                picked.add(node["name"])
        elif "." in selector:
            if node["fqn"][: len(selector.split("."))] == selector.split("."):
                picked.add(node["name"])
        elif node["name"] == selector:
            picked.add(node["name"])
    return picked


@pytest.mark.parametrize(
    ("module", "source_system"),
    [
        ("goldengate_pipeline", "goldengate"),
        ("goldengate_staging", "goldengate"),
        ("openedge_pipeline", "openedge_cdc"),
        ("openedge_staging", "openedge_cdc"),
        ("qlik_kafka_pipeline", "qlik_kafka"),
        ("qlik_kafka_staging", "qlik_kafka"),
        ("full_snapshot_pipeline", "full_snapshot"),
    ],
)
def test_each_format_benchmark_selects_the_formats_models(
    manifest: Manifest, module: str, source_system: str
) -> None:
    """A format's benchmark runs its staging and intermediate models, which are the package's
    (selected by fqn: a `path:` selector of a folder the sample project lacks selects
    nothing, so since the move to the package the benchmarks had left out every format's
    intermediate models and GoldenGate's staging), and the staging files the scaffold
    generated in the sample project."""
    import importlib

    select: list[str] = importlib.import_module(f"benchmarks.{module}").SELECT
    picked = set().union(*(_selected(manifest, selector) for selector in select))
    formats = {
        node["name"]
        for node in _models(manifest).values()
        if node["fqn"][1:3] in (["staging", source_system], ["intermediate", source_system])
    }
    assert formats and formats <= picked, sorted(formats - picked)
    assert f"int_{source_system}__changes_canonical" in picked
