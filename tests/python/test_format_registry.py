"""A source format is a folder of its own plus one entry of the format registry (var
cdc_source_systems, docs/adding-a-source-format.md): the shared macros reach a format's code
through hooks named after it (<system>_change_images, <system>_landed_tables,
<system>_validate_vars, <system>_table_replaces_staged, ...) and its settings through its
registry entry (column_encoding_default, images_ignore_inputs, source_system_values, ...), and
the shared marts reach it through those macros, so no shared macro's or mart's code names a
format. Comments may name one as an example."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

PROJECT_DIR = Path(__file__).resolve().parents[2]
MACROS = PROJECT_DIR / "macros"
REGISTRY: dict[str, dict] = yaml.safe_load((PROJECT_DIR / "dbt_project.yml").read_text())["vars"][
    "cdc_source_systems"
]
# the names a format's code may carry: its own and the source_system values its rows carry
FORMAT_NAMES = sorted(
    {
        name
        for system, entry in REGISTRY.items()
        for name in [system, *entry.get("source_system_values", [])]
    }
)
JINJA_COMMENT = re.compile(r"\{#.*?#\}", re.DOTALL)
SQL_LINE_COMMENT = re.compile(r"--[^\n]*")


def code_of(path: Path) -> str:
    """The macro file without its Jinja and SQL line comments."""
    return SQL_LINE_COMMENT.sub("", JINJA_COMMENT.sub("", path.read_text(encoding="utf-8")))


def names_in(code: str) -> list[str]:
    """The format names in the code, also inside a longer name (int_qlik_ct__changes_logged,
    idm_jdbc_landed_tables): an underscore is no boundary to \\b, so letters and digits are."""
    return [
        name for name in FORMAT_NAMES if re.search(rf"(?<![A-Za-z0-9]){name}(?![A-Za-z0-9])", code)
    ]


# cdc_var_defaults.sql is no code but a generated copy of dbt_project.yml's vars (the
# registry among them) for nodes of a user's project (python_udfs/var_defaults.py)
SHARED_MACROS = sorted(
    path
    for path in MACROS.rglob("*.sql")
    if path.relative_to(MACROS).parts[0] not in REGISTRY and path.name != "cdc_var_defaults.sql"
)
# the marts every format feeds (models/marts/cdc) and each table's (generated from the shared
# per-table templates: the sample project's); a format's own marts sit in a folder named after it
MARTS = PROJECT_DIR / "models" / "marts"
SAMPLE_MARTS = PROJECT_DIR / "samples" / "models" / "marts"
SHARED_MARTS = sorted(
    path
    for marts in (MARTS, SAMPLE_MARTS)
    for path in marts.rglob("*.sql")
    if path.relative_to(marts).parts[0] not in REGISTRY
)


def test_the_registry_names_the_formats_with_folders() -> None:
    assert set(REGISTRY) <= {path.name for path in MACROS.iterdir() if path.is_dir()}
    assert len(SHARED_MACROS) > 50
    assert len(SHARED_MARTS) > 20


@pytest.mark.parametrize(
    "path", SHARED_MACROS, ids=[str(p.relative_to(MACROS)) for p in SHARED_MACROS]
)
def test_no_shared_macro_names_a_format_in_its_code(path: Path) -> None:
    assert names_in(code_of(path)) == []


@pytest.mark.parametrize(
    "path", SHARED_MARTS, ids=[str(p.relative_to(PROJECT_DIR)) for p in SHARED_MARTS]
)
def test_no_shared_mart_names_a_format_in_its_code(path: Path) -> None:
    assert names_in(code_of(path)) == []


def test_the_check_finds_a_format_named_in_code() -> None:
    """The check can fail: a name in code is found, the same name in a comment is not."""
    assert names_in(code_of_text("{% if system == 'qlik_ct' %}")) == ["qlik_ct"]
    assert names_in(code_of_text("{{ idm_jdbc_landed_tables() }}")) == ["idm_jdbc"]
    assert names_in(code_of_text("{{ ref('int_qlik_ct__changes_logged') }}")) == ["qlik_ct"]
    assert names_in(code_of_text("{{ cdc_source_system_config(system) }}")) == []
    assert names_in(code_of_text("{#- e.g. qlik_ct_change_images -#} -- goldengate")) == []


def code_of_text(text: str) -> str:
    return SQL_LINE_COMMENT.sub("", JINJA_COMMENT.sub("", text))
