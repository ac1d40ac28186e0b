"""docs/configuration.md, generated: every var of `dbt_project.yml` with its default and the
comment that documents it, and the environment variables `profiles/profiles.yml` reads.

    python -m python_udfs.config_reference           # write docs/configuration.md
    python -m python_udfs.config_reference --check   # exit 1 when the page is out of date

How a var is documented in `dbt_project.yml` (what this module reads, line by line, under
`vars:`): a var is a key indented two spaces. Its description is the comment lines directly
above it (no blank line or other var between) and its trailing comment. A comment line
`# ---------- Title: text` starts a section: the title heads a table, and the text after the colon
(with the comment lines after it) is the comment above the var directly below. Comments nested
inside a var's value (the registry's, the sample tables') are not read, but for the registry
entries' `settings`: each is listed as the var that overrides it, `<system>_<setting>`, in a
section of its own titled by the comment `# ---------- Title` above the entry's `settings:`,
described as a var is, by its comment lines and trailing comment. A var or setting with no
description stops the generator, so `--check` (and `tests/python/test_docs_reference.py`) fails
on a new var or setting until its comment is written.

The default is the value in `dbt_project.yml`, as YAML reads it; a mapping of mappings (the
format registry, the tables) is shown by its keys. The environment variables are every
`env_var('NAME', default)` of `profiles/profiles.yml`, per target.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

PROJECT_DIR = Path(__file__).resolve().parents[1]
PAGE = Path("docs") / "configuration.md"

VAR_LINE = re.compile(r"^  (?P<name>[A-Za-z_]\w*):(?P<rest>.*)$")
COMMENT_LINE = re.compile(r"^  #(?P<text>.*)$")
SECTION_MARK = "----------"
TRAILING_COMMENT = re.compile(r"\s#\s?(?P<text>.*)$")
DOCS_PATH = re.compile(r"\bdocs/(?P<page>[\w-]+\.md)(?P<anchor>#[\w-]+)?")
README_SECTION = re.compile(r'README "(?P<title>[^"]+)"')
TARGET_LINE = re.compile(r"^    (?P<name>\w+):\s*$")
# the format registry: its entries (4 spaces) and their settings (8 spaces)
REGISTRY_VAR = "cdc_source_systems"
SYSTEM_LINE = re.compile(r"^    (?P<name>[a-z][a-z0-9_]*):\s*$")
SETTING_LINE = re.compile(r"^        (?P<name>[a-z][a-z0-9_]*):(?P<rest>.*)$")
SETTING_COMMENT = re.compile(r"^        #(?P<text>.*)$")


class ConfigReferenceError(Exception):
    """dbt_project.yml has a var this page cannot describe."""


@dataclass
class Var:
    name: str
    description: str
    default: object = None


@dataclass
class Section:
    title: str
    description: str
    variables: list[Var] = field(default_factory=list)


def _var_block(lines: list[str]) -> list[str]:
    """The lines of the top-level `vars:` mapping."""
    start = lines.index("vars:") + 1
    end = start
    while end < len(lines) and (not lines[end] or lines[end][0] in " #"):
        end += 1
    return lines[start:end]


def _trailing_comment(rest: str) -> str:
    match = TRAILING_COMMENT.search(rest)
    return match["text"].strip() if match else ""


def read_sections(project_file: Path) -> list[Section]:
    """The vars of a dbt_project.yml with their comments, in file order, by section."""
    text = project_file.read_text(encoding="utf-8")
    values: dict[str, Any] = (yaml.safe_load(text) or {}).get("vars") or {}
    sections: list[Section] = [Section("General", "")]
    above: list[str] = []  # the comment lines that describe the next var
    for line in _var_block(text.splitlines()):
        if not line.strip():
            above = []
            continue
        comment = COMMENT_LINE.match(line)
        if comment:
            words = comment["text"].strip()
            if words.startswith(SECTION_MARK):
                title, _, said = words[len(SECTION_MARK) :].strip().partition(": ")
                sections.append(Section(title.strip(), ""))
                above = [said] if said else []
            else:
                above.append(words)
            continue
        var = VAR_LINE.match(line)
        if not var:
            continue  # a line of a var's value (nested keys, list items, nested comments)
        parts = [*above, _trailing_comment(var["rest"])]
        above = []
        description = " ".join(part for part in parts if part)
        if not description:
            raise ConfigReferenceError(
                f"var {var['name']} in {project_file.name} has no comment: write one above it "
                "or after its value, then run python -m python_udfs.config_reference"
            )
        sections[-1].variables.append(Var(var["name"], description, values.get(var["name"])))
        if var["name"] == REGISTRY_VAR:
            registry_section = sections[-1]
            sections += read_format_sections(text, values.get(REGISTRY_VAR) or {}, project_file)
            # vars after the registry in its section: a table of that title again
            sections.append(Section(registry_section.title, ""))
    return [section for section in sections if section.variables]


def read_format_sections(text: str, registry: dict[str, Any], project_file: Path) -> list[Section]:
    """One section per registered format that has `settings`: each setting as the var that
    overrides it, `<system>_<setting>`, its default and its comment (as a var's: the comment
    lines directly above it and its trailing comment, at the settings' indentation), titled
    by the comment `# ---------- Title` directly above the entry's `settings:` line."""
    lines = _var_block(text.splitlines())
    start = next(n for n, line in enumerate(lines) if line.startswith(f"  {REGISTRY_VAR}:"))
    sections: list[Section] = []
    system, title, in_settings = "", "", False
    above: list[str] = []
    for line in lines[start + 1 :]:
        if line.startswith("  ") and not line.startswith("   "):
            break  # the next top-level var or comment
        entry = SYSTEM_LINE.match(line)
        if entry:
            system, title, in_settings, above = entry["name"], "", False, []
            continue
        if line.startswith("      ") and not line.startswith("       "):
            words = line.strip().lstrip("#").strip()
            if line.strip().startswith("#") and words.startswith(SECTION_MARK):
                title = words[len(SECTION_MARK) :].strip()
            elif line.strip() == "settings:":
                in_settings, above = True, []
                sections.append(Section(title or system, ""))
            else:
                in_settings = in_settings and line.strip().startswith("#")
            continue
        if not in_settings:
            continue
        if not line.strip():
            above = []
            continue
        comment = SETTING_COMMENT.match(line)
        if comment:
            above.append(comment["text"].strip())
            continue
        setting = SETTING_LINE.match(line)
        if not setting:
            continue  # a line of a setting's value
        name = f"{system}_{setting['name']}"
        parts = [*above, _trailing_comment(setting["rest"])]
        description = " ".join(part for part in parts if part)
        above = []
        if not description:
            raise ConfigReferenceError(
                f"setting {setting['name']} of format {system} in {project_file.name} has no "
                "comment: write one above it or after its value, then run "
                "python -m python_udfs.config_reference"
            )
        default = ((registry.get(system) or {}).get("settings") or {}).get(setting["name"])
        sections[-1].variables.append(Var(name, description, default))
    return sections


def _flow(value: object) -> str:
    """A YAML value as one line of flow style, as dbt_project.yml or --vars would write it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '""' if value == "" else value
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key}: {_flow(item)}" for key, item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    return str(value)


def show_default(value: object) -> str:
    """The default as a table cell."""
    if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
        return f"{len(value)} entries: " + ", ".join(f"`{key}`" for key in value)
    return "`" + _flow(value).replace("|", "\\|") + "`"


def _cell(text: str) -> str:
    """Comment text as a table cell: pipes escaped, docs/ paths made links from docs/."""
    text = text.replace("|", "\\|")
    text = README_SECTION.sub(
        lambda m: f"[{m.group(0)}](../README.md#{github_anchor(m['title'])})", text
    )
    return DOCS_PATH.sub(lambda m: f"[{m.group(0)}]({m['page']}{m['anchor'] or ''})", text)


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation but `-` and `_` dropped,
    spaces made `-` (duplicates get `-1`, `-2`, ...: not needed here)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _env_var_calls(text: str) -> list[tuple[str, str | None]]:
    """(name, default expression or None) of every env_var(...) call, outermost first."""
    found: list[tuple[str, str | None]] = []
    for start in (m.end() for m in re.finditer(r"env_var\(", text)):
        depth, end = 1, start
        while end < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        arguments = text[start : end - 1]
        name, comma, default = arguments.partition(",")
        found.append((name.strip().strip("'\""), default.strip() if comma else None))
    return found


def read_environment(profiles_file: Path) -> dict[str, dict[str, str | None]]:
    """Environment variable -> {target (or `all`) -> default expression}, in file order."""
    variables: dict[str, dict[str, str | None]] = {}
    target = "all"
    for line in profiles_file.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("#"):
            continue
        heading = TARGET_LINE.match(line)
        if heading:
            target = heading["name"]
        for name, default in _env_var_calls(line):
            variables.setdefault(name, {}).setdefault(target, default)
    return variables


def _show_env_default(default: str | None) -> str:
    if default is None:
        return "none: required"
    literal = re.fullmatch(r"'([^']*)'", default)
    if literal:
        return f"`{literal[1]}`" if literal[1] else "empty"
    return "`" + default.replace("|", "\\|") + "`"


def render(project_dir: Path = PROJECT_DIR) -> str:
    """The whole page."""
    out = [
        "# Configuration reference",
        "",
        "<!-- generated by python -m python_udfs.config_reference from dbt_project.yml and",
        "     profiles/profiles.yml: edit the comments there, then run it again -->",
        "",
        "Every setting is a dbt var: set it in `dbt_project.yml` or pass it with `--vars` (e.g.",
        "`cdc-dbt build --vars '{qlik_ct_landing: files, qlik_ct_landing_root: /lake/landing}'`).",
        "Each var's description is the comment beside it in `dbt_project.yml`. A format's",
        "settings (the sections below named after a format) are the `settings` of its entry in",
        "the registry `cdc_source_systems`, where their defaults are; the var",
        "`<format>_<setting>` overrides one, and a var named so that names no setting of the",
        "format stops `cdc-dbt` and `cdc-dbt scaffold`, naming the format's settings. What the",
        "settings",
        "of a table (`cdc_tables`) and a format (`cdc_source_systems`) mean is explained in",
        "[Qlik change tables](qlik-change-tables.md"
        "#pointing-the-project-at-real-replicate-change-tables)",
        "and [Adding a source format](adding-a-source-format.md); the per-table history options",
        "in [History options](history-options.md). A mistaken value stops `dbt parse` with a",
        "message naming the var: [Troubleshooting](troubleshooting.md).",
    ]
    for section in read_sections(project_dir / "dbt_project.yml"):
        title = _cell(section.title[:1].upper() + section.title[1:])
        out += ["", f"## {title}", ""]
        out += ["| var | default | description |", "|---|---|---|"]
        out += [
            f"| `{var.name}` | {show_default(var.default)} | {_cell(var.description)} |"
            for var in section.variables
        ]
    out += [
        "",
        "## Environment variables of `profiles/profiles.yml`",
        "",
        "The targets read these (`env_var(NAME, default)`); a target that merges another's",
        "settings (a YAML anchor such as `*local_parameters`) reads that target's variables",
        "too. What they do: [the local target](cdc-dbt.md#other-settings-of-the-local-target)",
        "and [Running on a cluster](running-on-a-cluster.md). The variables `cdc-dbt` itself",
        "reads (`CDC_WARM_UP`, `CDC_CLASS_ARCHIVE`, `CDC_METASTORE_WAIT_SECONDS`, ...) are",
        "described on those pages too.",
        "",
        "| variable | default (targets) |",
        "|---|---|",
    ]
    for name, targets in read_environment(project_dir / "profiles" / "profiles.yml").items():
        by_default: dict[str, list[str]] = {}
        for target, default in targets.items():
            by_default.setdefault(_show_env_default(default), []).append(target)
        shown = "; ".join(
            f"{default} ({', '.join(names)})" for default, names in by_default.items()
        )
        out.append(f"| `{name}` | {shown} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m python_udfs.config_reference")
    parser.add_argument("--check", action="store_true", help=f"exit 1 if {PAGE} is out of date")
    args = parser.parse_args(argv)
    try:
        page = render()
    except ConfigReferenceError as error:
        print(f"config_reference: {error}", file=sys.stderr)
        return 2
    path = PROJECT_DIR / PAGE
    if args.check:
        if not path.exists() or path.read_text(encoding="utf-8") != page:
            print(f"{PAGE} is out of date: run python -m python_udfs.config_reference")
            return 1
        return 0
    path.write_text(page, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
