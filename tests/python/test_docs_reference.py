"""The reference pages of docs/ are complete: docs/configuration.md is what its generator
(`python -m python_udfs.config_reference`) writes from `dbt_project.yml` and
`profiles/profiles.yml` now, and docs/troubleshooting.md quotes every error message a macro
raises and those of `cdc-dbt scaffold` and the session settings.

How a message is matched: its text is split into the literal pieces the code joins (a Jinja
`"..." ~ value ~ "..."`, a Python f-string's text between `{...}`), pieces that follow each
other without a value between them joined. Every piece of 12 characters or more must appear
in the page, with whitespace collapsed (so a message may wrap over lines and its values may be
written `<table>`); a message with no piece that long must show its longest piece. What this
cannot check: that the page's cause and fix are right, messages built from a variable alone
(`where ~ ...` shows only what follows `where`; the page spells the prefix out by hand),
errors Spark raises in a query (`raise_error(...)` in SQL: the page lists them by hand), and
the shell scripts' `ERROR:` lines.

Time budget: about a second (no Spark, no dbt).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from python_udfs import config_reference

PROJECT_DIR = Path(__file__).resolve().parents[2]
TROUBLESHOOTING = PROJECT_DIR / "docs" / "troubleshooting.md"
MIN_PIECE = 12
# Python modules whose errors reach the user as a command's one-line message
PYTHON_SOURCES = (
    "python_udfs/scaffold.py",
    "python_udfs/session.py",
    "python_udfs/metastore_lock.py",
    "python_udfs/init_project.py",
)
PYTHON_ERRORS = ("ScaffoldError", "SettingsError", "ValueError", "InitError")


def test_configuration_page_is_current() -> None:
    page = PROJECT_DIR / config_reference.PAGE
    assert page.read_text(encoding="utf-8") == config_reference.render(), (
        "docs/configuration.md is out of date: run python -m python_udfs.config_reference"
    )


def test_a_var_without_a_comment_stops_the_generator(tmp_path: Path) -> None:
    (tmp_path / "dbt_project.yml").write_text(
        "name: x\nvars:\n  # ---------- section: the first var\n  first: 1\n"
        "  second: 2   # the second var\n  third: 3\n",
        encoding="utf-8",
    )
    with pytest.raises(config_reference.ConfigReferenceError, match="var third"):
        config_reference.read_sections(tmp_path / "dbt_project.yml")


def test_the_generator_reads_comments_above_and_beside() -> None:
    sections = {s.title: s for s in config_reference.read_sections(PROJECT_DIR / "dbt_project.yml")}
    qlik = {var.name: var for var in sections["Qlik Replicate change tables (spec A)"].variables}
    assert qlik["qlik_ct_landing"].description == "seeds (shipped samples) | tables | files"
    assert qlik["qlik_ct_landing"].default == "seeds"
    assert qlik["qlik_ct_landing_csv_options"].description.startswith("files mode, csv: Spark")


def _jinja_argument_parts(text: str, start: int) -> list[str]:
    """The `~`-joined parts of a call's argument, from `start` (after its opening parenthesis)
    to the parenthesis that closes it; quotes and nested brackets are skipped over."""
    parts, current, depth, quote, index = [], "", 1, "", start
    while index < len(text):
        char = text[index]
        index += 1
        if quote:
            current += char
            if char == "\\" and index < len(text):
                current += text[index]
                index += 1
            elif char == quote:
                quote = ""
            continue
        if char in "\"'":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                break
        elif char == "~" and depth == 1:
            parts.append(current.strip())
            current = ""
            continue
        current += char
    parts.append(current.strip())
    return parts


def _jinja_pieces(parts: list[str]) -> list[str]:
    """The literal pieces of a Jinja `~` concatenation, adjacent literals joined."""
    pieces, run = [], ""
    for part in parts:
        literal = re.fullmatch(r"\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'", part)
        if literal:
            text = literal[1] if literal[1] is not None else literal[2]
            run += re.sub(r"\\(.)", r"\1", text)
        else:
            pieces.append(run)
            run = ""
    pieces.append(run)
    return [piece for piece in pieces if piece.strip()]


def compiler_error_messages() -> list[tuple[str, list[str]]]:
    """(where, literal pieces) of every raise_compiler_error in macros/, models/, tests/."""
    found = []
    for folder in ("macros", "models", "tests"):
        for path in sorted((PROJECT_DIR / folder).rglob("*.sql")):
            text = path.read_text(encoding="utf-8")
            for call in re.finditer(r"raise_compiler_error\(", text):
                line = text.count("\n", 0, call.start()) + 1
                pieces = _jinja_pieces(_jinja_argument_parts(text, call.end()))
                found.append((f"{path.relative_to(PROJECT_DIR)}:{line}", pieces))
    return found


def python_error_messages() -> list[tuple[str, list[str]]]:
    """(where, literal pieces) of the user-facing errors the PYTHON_SOURCES raise."""
    found = []
    for source in PYTHON_SOURCES:
        tree = ast.parse((PROJECT_DIR / source).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Raise)
                and isinstance(node.exc, ast.Call)
                and isinstance(node.exc.func, ast.Name)
                and node.exc.func.id in PYTHON_ERRORS
                and node.exc.args
            ):
                continue
            message = node.exc.args[0]
            if isinstance(message, ast.Constant) and isinstance(message.value, str):
                pieces = [message.value]
            elif isinstance(message, ast.JoinedStr):
                pieces, run = [], ""
                for value in message.values:
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        run += value.value
                    else:
                        pieces.append(run)
                        run = ""
                pieces.append(run)
            elif isinstance(message, ast.BinOp):  # "text" + "\n".join(...)
                left = message.left
                text = left.value if isinstance(left, ast.Constant) else None
                pieces = [text] if isinstance(text, str) else []
            else:
                continue
            found.append((f"{source}:{node.lineno}", [p for p in pieces if p.strip()]))
    return found


def _collapsed(text: str) -> str:
    return " ".join(text.split())


def test_the_extraction_finds_the_messages() -> None:
    """The parsers above see the messages (a broken parser would find nothing to check)."""
    macros = compiler_error_messages()
    assert len(macros) > 100
    assert any("lacks required key '" in piece for _, pieces in macros for piece in pieces)
    python = python_error_messages()
    assert any("needs key_columns (in key order)" in piece for _, ps in python for piece in ps)


@pytest.mark.parametrize("source", ["macros", "python"])
def test_every_error_message_is_in_troubleshooting(source: str) -> None:
    page = _collapsed(TROUBLESHOOTING.read_text(encoding="utf-8"))
    messages = compiler_error_messages() if source == "macros" else python_error_messages()
    missing = []
    for where, pieces in messages:
        long_pieces = [_collapsed(p) for p in pieces if len(p.strip()) >= MIN_PIECE]
        wanted = long_pieces or [max((_collapsed(p) for p in pieces), key=len, default="")]
        absent = [piece for piece in wanted if piece not in page]
        if absent:
            missing.append(f"{where}: {absent}")
    assert not missing, "docs/troubleshooting.md lacks these messages:\n" + "\n".join(missing)
