"""macros/cdc/cdc_var_defaults.sql, generated: the defaults of this package's vars.

    python -m python_udfs.var_defaults           # write the macro
    python -m python_udfs.var_defaults --check   # exit 1 when it is out of date

dbt gives a node the vars of the project the node belongs to. A node of this project (or of
this package inside a user's project) sees the vars of our `dbt_project.yml`, overridden by
the root project's; but a node of the user's own project (the per-table models `cdc-dbt
scaffold` writes there) sees only the user's vars, even inside our macros. So the macros read
vars through `cdc_var(name)`, which falls back on these defaults: every var of our
`dbt_project.yml` as YAML reads it, `cdc_tables` always empty (a project's tables are its own:
the repository's sample tables are in samples/dbt_project.yml). A format's settings are in
its registry entry (`settings`), not vars of their own: cdc_var reads them from the registry
the project uses (cdc_format_setting_default), and `package_defaults` here lists them by var
name for the scaffold.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import yaml

PROJECT_DIR = Path(__file__).resolve().parents[1]
MACRO = Path("macros") / "cdc" / "cdc_var_defaults.sql"
# vars that are never a default: a project's tables are its own (empty in dbt_project.yml too)
SAMPLE_VARS: dict[str, Any] = {"cdc_tables": {}}


def jinja_literal(value: Any, indent: int = 0, width: int = 96) -> str:
    """`value` as a Jinja expression (strings JSON-quoted, which Jinja reads alike); a
    mapping whose one line would pass `width` characters after `indent` spans lines."""
    flat = _flat_literal(value)
    if not isinstance(value, dict) or not value or indent + len(flat) <= width:
        return flat
    inner = " " * (indent + 4)
    items = [
        f"{inner}{_key(key)}: {jinja_literal(item, indent + 4, width)}"
        for key, item in value.items()
    ]
    return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"


def _key(key: object) -> str:
    return json.dumps(str(key), ensure_ascii=False)


def _flat_literal(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_flat_literal(item) for item in value) + "]"
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(f"{_key(key)}: {_flat_literal(item)}" for key, item in value.items())
            + "}"
        )
    raise TypeError(f"var value of type {type(value).__name__} has no Jinja literal: {value!r}")


def package_vars(project_dir: Path = PROJECT_DIR) -> dict[str, Any]:
    """Every var of dbt_project.yml with its default (SAMPLE_VARS replaced): what the macro
    holds."""
    project = yaml.safe_load((project_dir / "dbt_project.yml").read_text())
    defaults: dict[str, Any] = dict(project.get("vars") or {})
    defaults.update(SAMPLE_VARS)
    return defaults


def format_settings(registry: Any) -> dict[str, Any]:
    """Each registered format's settings as the vars that override them, `<system>_<setting>`
    with the entry's default (cdc_format_setting_default reads them so in dbt)."""
    found: dict[str, Any] = {}
    for system, entry in (registry if isinstance(registry, dict) else {}).items():
        settings = entry.get("settings") if isinstance(entry, dict) else None
        for setting, value in (settings if isinstance(settings, dict) else {}).items():
            found[f"{system}_{setting}"] = value
    return found


def with_format_settings(variables: dict[str, Any]) -> dict[str, Any]:
    """`variables` with every format setting it does not set, at its registry default (the
    registry `variables` holds: a project's own, else ours), as cdc_var reads them."""
    merged = dict(variables)
    for name, value in format_settings(merged.get("cdc_source_systems")).items():
        merged.setdefault(name, value)
    return merged


def unknown_format_settings(variables: dict[str, Any]) -> list[str]:
    """What is wrong with the vars named like a format's setting, `<system>_<name>` for a
    registered system (the longest that matches), that name no setting of its entry: one
    message per var, naming the format's settings (a misspelt `qlik_ct_landng: files` would
    otherwise be ignored, the format landing as seeds)."""
    registry = variables.get("cdc_source_systems")
    if not isinstance(registry, dict):
        return []
    problems = []
    for name in variables:
        systems = [s for s in registry if isinstance(s, str) and str(name).startswith(f"{s}_")]
        if not systems:
            continue
        system = max(systems, key=len)
        entry = registry[system]
        settings = entry.get("settings") if isinstance(entry, dict) else None
        known = list(settings) if isinstance(settings, dict) else []
        if str(name)[len(system) + 1 :] not in known:
            problems.append(
                f"var {name}: the format {system} has no setting "
                f"{str(name)[len(system) + 1 :]!r} (its settings, each set as var "
                f"{system}_<setting>: {', '.join(known) or 'none'}; docs/configuration.md)"
            )
    return problems


def package_defaults(project_dir: Path = PROJECT_DIR) -> dict[str, Any]:
    """Every var the package reads with its default: the vars of dbt_project.yml and each
    format's settings by their var names (`qlik_ct_landing`)."""
    return with_format_settings(package_vars(project_dir))


def render(project_dir: Path = PROJECT_DIR) -> str:
    lines = [
        "{% macro cdc_var_defaults() %}",
        "    {#- generated by `python -m python_udfs.var_defaults` from dbt_project.yml: do not",
        "        edit. The default of every var of this package, for cdc_var (a node of a",
        "        user's project sees only that project's vars); cdc_tables is empty. Built once",
        "        a command (cdc_invocation_memo): every caller reads the same dict, and none",
        "        changes it. -#}",
        "    {%- set memo = cdc_history.cdc_invocation_memo() -%}",
        "    {%- if 'var_defaults' in memo -%}",
        "        {{ return(memo['var_defaults']) }}",
        "    {%- endif -%}",
        "    {%- do memo.update({'var_defaults': {",
    ]
    items = list(package_vars(project_dir).items())
    for position, (name, value) in enumerate(items):
        comma = "," if position < len(items) - 1 else ""
        literal = jinja_literal(value, indent=8, width=96 - len(json.dumps(name)) - 2)
        lines.append(f"        {json.dumps(name)}: {literal}{comma}")
    lines += ["    }}) -%}", "    {{ return(memo['var_defaults']) }}", "{% endmacro %}", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="exit 1 when out of date")
    args = parser.parse_args(argv)
    target = PROJECT_DIR / MACRO
    text = render()
    if args.check:
        if not target.is_file() or target.read_text() != text:
            print(
                f"{MACRO} is out of date: run python -m python_udfs.var_defaults", file=sys.stderr
            )
            return 1
        return 0
    target.write_text(text)
    print(f"wrote {MACRO}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
