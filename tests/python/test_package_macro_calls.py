"""The macros run from a user's project (docs/package.md): in macro code (`macros/`,
`tests/generic/`, the SQL templates under `scaffold/`) every call of one of our macros is
qualified `cdc_history.<name>(` and no var is read with a bare `var(` (cdc_var gives it the
package's default). dbt would resolve the unqualified call in our project and fail it in a
user's, so nothing else in the suite would notice. Pure Python, no Spark."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

PROJECT_DIR = Path(__file__).resolve().parents[2]
DEFINITION = re.compile(r"\{%-?\s*(macro|test)\s+([a-z_][a-z0-9_]*)\s*\(")
JINJA = re.compile(r"\{\{(.*?)\}\}|\{%(.*?)%\}|\{#.*?#\}", re.S)
STRING = re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"", re.S)
CALL = re.compile(r"(?<![\w.])([a-z_][a-z0-9_]*)\s*\(")
# the one place that calls dbt's var(): cdc_var itself
# the macros that read var() itself: cdc_var, and the registry default it falls back on
VAR_READERS = {"macros/cdc/cdc_var.sql", "macros/cdc/cdc_format_setting_default.sql"}


def macro_files() -> list[Path]:
    return sorted(
        [
            *(PROJECT_DIR / "macros").rglob("*.sql"),
            *(PROJECT_DIR / "tests" / "generic").rglob("*.sql"),
        ]
    )


def our_macro_names() -> set[str]:
    names: set[str] = set()
    for path in macro_files():
        for kind, name in DEFINITION.findall(path.read_text()):
            names.add(name if kind == "macro" else f"test_{name}")
    return names


def code_pieces(text: str) -> list[str]:
    """The Jinja code of a file: its expressions and statements outside strings, and the
    strings that hold Jinja themselves (a hook written as text); no comments."""
    pieces: list[str] = []
    for match in JINJA.finditer(text):
        code = match.group(1) or match.group(2) or ""
        strings = STRING.findall(code)
        pieces.append(STRING.sub("''", code))
        pieces.extend(string for string in strings if "{{" in string or "{%" in string)
    return pieces


def unqualified_calls(text: str, names: set[str]) -> list[str]:
    found = []
    for piece in code_pieces(text):
        for match in CALL.finditer(piece):
            name = match.group(1)
            before = piece[: match.start()].rstrip()
            if name in names and not re.search(r"\b(macro|test)$", before):
                found.append(name)
            if name == "var":
                found.append("var")
    return found


NAMES = our_macro_names()
FILES = [*macro_files(), *sorted((PROJECT_DIR / "scaffold").rglob("*.sql.j2"))]


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(PROJECT_DIR)) for p in FILES])
def test_every_call_of_our_macros_is_qualified(path: Path) -> None:
    relative = str(path.relative_to(PROJECT_DIR))
    found = unqualified_calls(path.read_text(), NAMES)
    if relative in VAR_READERS:
        found = [name for name in found if name != "var"]
    assert found == [], f"{relative}: write cdc_history.<name>( and cdc_history.cdc_var("


def test_the_check_finds_what_it_looks_for() -> None:
    """It can fail: an unqualified call in code, in a hook string, a bare var(); not in a
    comment, a plain string, a definition or a qualified call."""
    names = {"point_in_time", "cdc_write_finished", "test_primary_key"}
    assert unqualified_calls("{{ point_in_time('t') }}", names) == ["point_in_time"]
    assert unqualified_calls('{% set h = "{{ cdc_write_finished() }}" %}', names) == [
        "cdc_write_finished"
    ]
    assert unqualified_calls("{{ test_primary_key(model) }}", names) == ["test_primary_key"]
    assert unqualified_calls("{%- set x = var('as_of') -%}", names) == ["var"]
    assert unqualified_calls("{# point_in_time('t') #} point_in_time(", names) == []
    assert unqualified_calls("{{ 'point_in_time(' }}", names) == []
    assert unqualified_calls("{% macro point_in_time(t) %}", names) == []
    assert unqualified_calls("{{ cdc_history.point_in_time('t') }}", names) == []
    assert len(NAMES) > 200 and "point_in_time" in NAMES and "test_primary_key" in NAMES
