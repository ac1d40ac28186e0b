"""Every relative link of README.md and docs/*.md leads somewhere, and every repository path the
docs name in backticks exists.

Links: each `[text](target)` outside fenced code blocks and code spans, whose target has no
scheme (`https:`, `mailto:`), must name an existing file or folder relative to the page; a
`#anchor` (alone, or after a Markdown file) must be the anchor GitHub gives one of that page's
headings: the heading's text without its Markdown (code marks, links), lower case, every
character but letters, digits, spaces, `-` and `_` dropped, spaces made `-`, and `-1`, `-2`,
... appended to repeats.

Paths: a code span (`...`) of README.md or docs/*.md is taken for a repository path when it
holds no space and starts with one of the repository's top-level folders and a slash
(`REPOSITORY_FOLDERS`: `models/`, `macros/`, `bin/`, `tests/`, ...). A placeholder ends what
is checked: at the first `<`, `{`, `*`, `[` or `$` the path is cut back to its last whole
folder, so `models/marts/<table>/` checks `models/marts/`. A bare test module name
(`test_*.py`) must be a file of `tests/python/`. Anything else in backticks (SQL, commands,
model names, paths outside the repository such as `~/.cache/...` or a Java home's
`$JAVA_HOME/bin/java`) is not a path here.

Time budget: about a second (no Spark, no dbt).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from python_udfs import config_reference

PROJECT_DIR = Path(__file__).resolve().parents[2]
PAGES = sorted([PROJECT_DIR / "README.md", *(PROJECT_DIR / "docs").glob("*.md")])
REPOSITORY_FOLDERS = (
    "benchmarks",
    "bin",
    "cdc_simulator",
    "docs",
    "macros",
    "models",
    "profiles",
    "python_udfs",
    "scaffold",
    "seeds",
    "tests",
)
LINK = re.compile(r"!?\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)\)")
CODE_SPAN = re.compile(r"(`+)(?P<code>.+?)\1")
HEADING = re.compile(r"^(?P<marks>#{1,6})\s+(?P<text>.+?)\s*#*\s*$")
PLACEHOLDER = re.compile(r"[<{*\[$]")


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of a page outside fenced code blocks."""
    lines, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if not fenced:
            lines.append((number, line))
    return lines


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading's text (without the duplicate suffix): a link in it
    counts by its text, the rest by the rule the configuration page's links are made with."""
    return config_reference.github_anchor(LINK.sub(lambda m: m["text"], heading))


def anchors(page: Path) -> set[str]:
    """Every anchor of a page's headings, repeats numbered as GitHub numbers them."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in prose_lines(page.read_text(encoding="utf-8")):
        heading = HEADING.match(line)
        if not heading:
            continue
        anchor = github_anchor(heading["text"])
        count = seen.get(anchor, 0)
        seen[anchor] = count + 1
        found.add(anchor if count == 0 else f"{anchor}-{count}")
    return found


def links(page: Path) -> list[tuple[int, str]]:
    """(line, target) of the page's links (their text may wrap), code spans left out."""
    numbered = prose_lines(page.read_text(encoding="utf-8"))
    text = "\n".join(CODE_SPAN.sub("", line) for _, line in numbered)
    return [
        (numbered[text.count("\n", 0, link.start())][0], link["target"])
        for link in LINK.finditer(text)
    ]


def code_paths(page: Path) -> list[tuple[int, str]]:
    """(line, repository path to check) of the page's code spans that name one."""
    found = []
    for number, line in prose_lines(page.read_text(encoding="utf-8")):
        for span in CODE_SPAN.finditer(line):
            code = span["code"].strip()
            if not code or " " in code:
                continue
            if re.fullmatch(r"test_\w+\.py", code):
                found.append((number, f"tests/python/{code}"))
                continue
            if code.split("/", 1)[0] not in REPOSITORY_FOLDERS or "/" not in code:
                continue
            cut = PLACEHOLDER.search(code)
            if cut:
                code = code[: cut.start()]
                code = code[: code.rfind("/") + 1]
            found.append((number, code))
    return found


def test_the_rules_see_links_anchors_and_paths() -> None:
    """The parsers above find what they check (a broken one would find nothing)."""
    readme = PROJECT_DIR / "README.md"
    assert "docs/README.md" in {target for _, target in links(readme)}
    assert "quick-start" in anchors(readme)
    assert github_anchor("Why `cdc-dbt` and not plain `dbt`") == "why-cdc-dbt-and-not-plain-dbt"
    assert github_anchor("A shared metastore on PostgreSQL: target `postgres`") == (
        "a-shared-metastore-on-postgresql-target-postgres"
    )
    named = {path for _, path in code_paths(PROJECT_DIR / "docs" / "adding-a-source-format.md")}
    assert "models/staging/" in named  # from `models/staging/<sys>/`
    assert "python_udfs/scaffold.py" in named


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(PROJECT_DIR)))
def test_relative_links_resolve(page: Path) -> None:
    broken = []
    for number, target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            continue  # https:, mailto:
        path_part, _, anchor = target.partition("#")
        linked = (page.parent / path_part).resolve() if path_part else page
        if not linked.exists():
            broken.append(f"line {number}: {target} (no such file)")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(f"line {number}: {target} (no heading with anchor #{anchor})")
    assert not broken, f"{page.relative_to(PROJECT_DIR)}: " + "; ".join(broken)


@pytest.mark.parametrize("page", PAGES, ids=lambda page: str(page.relative_to(PROJECT_DIR)))
def test_named_code_paths_exist(page: Path) -> None:
    missing = [
        f"line {number}: {path}"
        for number, path in code_paths(page)
        if not (PROJECT_DIR / path).exists()
    ]
    assert not missing, f"{page.relative_to(PROJECT_DIR)} names paths that do not exist: " + (
        "; ".join(missing)
    )
