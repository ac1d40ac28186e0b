"""`cdc-dbt init <dir>`: a new dbt project of your own that uses the cdc_history package.

    cdc-dbt init my_cdc              # creates my_cdc/ (refused when it holds a dbt project)

It writes, and never overwrites (a README.md or .gitignore already there is kept):

    dbt_project.yml                  name from the folder, profile cdc_history, the dispatch
                                     order, landing in files mode, commented cdc_tables examples
    packages.yml                     the installed package, as a local: path
    profiles/profiles.yml            the package's profile (its local, postgres, cluster and
                                     thrift targets)
    macros/cdc_history_overrides.sql the root-project wrappers of the package's materializations
                                     and generate_schema_name
    README.md  .gitignore

Everything written comes from the package itself (`package_files.dbt_package_dir()`): the
format registry in its dbt_project.yml and the first table of each format in its sample
project's (`samples/dbt_project.yml`) give the commented examples, its `models:` folder
defaults become the project's, and its profile is copied. No user text reaches YAML or SQL
unchecked: the project name must match `^[a-z][a-z0-9_]*$`, and every YAML value is written
by yaml.safe_dump. Nothing runs dbt or Spark (docs/cdc-dbt.md, "Your own project: cdc-dbt
init").
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from python_udfs.config_reference import read_sections
from python_udfs.package_files import dbt_package_dir

PACKAGE_NAME = "cdc_history"
PROFILE_NAME = "cdc_history"
PROJECT_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
# names dbt resolves to something else: the package itself, dbt's and the adapter's namespaces
RESERVED_NAMES = {PACKAGE_NAME, "dbt", "spark", "dbt_spark"}
LANDING_MODE = "files"
OVERRIDES_FILE = Path("macros") / "cdc_history_overrides.sql"
# the package's materializations that override dbt-spark's: (name, supported_languages)
MATERIALIZATIONS = (
    ("table", ["sql", "python"]),
    ("incremental", ["sql", "python"]),
    ("view", None),
)
# the package's model settings a project of the user's sets again for the package's models:
# rendered with the user's vars (a package's own dbt_project.yml is rendered without them)
PACKAGE_MODEL_SETTINGS = ("+file_format",)
GITIGNORED = ("target/", "logs/", "dbt_packages/", ".local/")
# files of a folder's own (a fresh repository's) that init keeps rather than refuse
KEPT_IF_PRESENT = {Path("README.md"), Path(".gitignore")}


class InitError(Exception):
    """The project cannot be created; the message says why and what to do."""


def project_name(directory: Path) -> str:
    """The dbt project name of a folder: its name lowercased, each character other than a
    letter, digit or underscore made `_`; it must start with a letter."""
    folder = directory.resolve().name
    name = re.sub(r"[^a-z0-9_]", "_", folder.lower())
    if not PROJECT_NAME.match(name):
        raise InitError(
            f"the project name {name!r} (from the folder name {folder!r}) does not start with "
            "a letter; choose a folder whose name does"
        )
    if name in RESERVED_NAMES:
        raise InitError(
            f"the project name {name!r} (from the folder name {folder!r}) is taken by dbt or "
            "the package; choose another folder name"
        )
    return name


def _flow(value: Any) -> str:
    """`value` as one line of YAML flow style (a scalar quoted where YAML needs it)."""
    text = yaml.safe_dump(
        [value], default_flow_style=True, sort_keys=False, allow_unicode=True, width=10**6
    )
    return text.strip()[1:-1]


def _dump(data: Mapping[str, Any], indent: int = 0, block_depth: int = 3) -> str:
    """YAML for a mapping, indented by `indent` spaces: mappings `block_depth` levels deep
    and lists of mappings in block style, anything deeper on one line (flow style)."""
    pad = " " * indent
    text = ""
    for key, value in data.items():
        if isinstance(value, Mapping) and value and block_depth > 1:
            text += f"{pad}{_flow(key)}:\n" + _dump(value, indent + 2, block_depth - 1)
        elif isinstance(value, list) and value and all(isinstance(i, Mapping) for i in value):
            text += f"{pad}{_flow(key)}:\n"
            for item in value:
                item_text = _dump(item, indent + 4, block_depth - 1)
                text += f"{pad}  - " + item_text[indent + 4 :]
        else:
            text += f"{pad}{_flow(key)}: {_flow(value)}\n"
    return text


def _comment(text: str, indent: int) -> str:
    """Each line of `text` as a YAML comment line (a line feed in it cannot end the comment)."""
    return "".join(f"{' ' * indent}# {line}".rstrip() + "\n" for line in text.splitlines())


def _note(text: str, indent: int) -> str:
    """Prose as YAML comment lines, wrapped to 92 characters."""
    return _comment(textwrap.fill(" ".join(text.split()), 92 - indent), indent)


def load_package_project(package_dir: Path) -> dict[str, Any]:
    """The package's dbt_project.yml, checked for what init reads from it."""
    path = package_dir / "dbt_project.yml"
    try:
        project = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise InitError(f"cannot read the package's dbt_project.yml ({path}): {error}") from error
    variables = project.get("vars") if isinstance(project, dict) else None
    if not isinstance(variables, dict) or not isinstance(variables.get("cdc_source_systems"), dict):
        raise InitError(f"the package's dbt_project.yml ({path}) has no vars.cdc_source_systems")
    checked: dict[str, Any] = project
    return checked


SAMPLE_PROJECT = Path("samples") / "dbt_project.yml"


def sample_tables(package_dir: Path) -> dict[str, Any]:
    """The sample project's cdc_tables (samples/dbt_project.yml, which the wheel carries),
    or none when the package has no sample project."""
    try:
        samples = yaml.safe_load((package_dir / SAMPLE_PROJECT).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return {}
    variables = samples.get("vars") if isinstance(samples, dict) else None
    tables = variables.get("cdc_tables") if isinstance(variables, dict) else None
    return dict(tables) if isinstance(tables, dict) else {}


def format_examples(
    project: Mapping[str, Any], samples: Mapping[str, Any]
) -> dict[str, tuple[str, dict[str, Any]] | None]:
    """Each registered format's example: the first sample table of that format in the sample
    project's cdc_tables (`samples`: its name and entry), or None when there is none."""
    examples: dict[str, tuple[str, dict[str, Any]] | None] = {}
    for source_system in project["vars"]["cdc_source_systems"]:
        examples[source_system] = next(
            (
                (table, dict(entry))
                for table, entry in samples.items()
                if isinstance(entry, dict) and entry.get("source_system") == source_system
            ),
            None,
        )
    return examples


def _landing_root_comments(package_dir: Path) -> dict[str, str]:
    """The package's comment of each var <system>_landing_root (what files mode reads)."""
    return {
        var.name: var.description
        for section in read_sections(package_dir / "dbt_project.yml")
        for var in section.variables
        if var.name.endswith("_landing_root")
    }


def render_project_file(name: str, directory: Path, package_dir: Path) -> str:
    """The new project's dbt_project.yml."""
    project = load_package_project(package_dir)
    registry: dict[str, Any] = project["vars"]["cdc_source_systems"]
    head = {
        "name": name,
        "version": "1.0.0",
        "config-version": 2,
        "profile": PROFILE_NAME,
        "model-paths": ["models"],
        "macro-paths": ["macros"],
        "seed-paths": ["seeds"],
        "test-paths": ["tests"],
        "analysis-paths": ["analyses"],
        "clean-targets": ["target", "logs"],
        "flags": {
            "send_anonymous_usage_stats": False,
            "require_explicit_package_overrides_for_builtin_materializations": False,
            # the package's models and tests ref the per-table models `cdc-dbt scaffold`
            # writes here: looked up in the package first, then here, without dbt's warning
            # about each such ref on every parse
            "require_ref_searches_node_package_before_root": True,
        },
        # the package's spark__create_view_as and spark__load_csv_rows before dbt-spark's
        "dispatch": [{"macro_namespace": "dbt", "search_order": [name, PACKAGE_NAME, "dbt"]}],
    }
    parts = [
        _note(
            f"Created by `cdc-dbt init`: a dbt project on the {PACKAGE_NAME} package "
            "(packages.yml). Every var the package reads, with its default: docs/configuration.md "
            "of the cdc-history repository. README.md says what to do next.",
            0,
        ),
        _dump(head),
        "\nvars:\n",
    ]
    comments = _landing_root_comments(package_dir)
    for source_system in registry:
        root_var = f"{source_system}_landing_root"
        comment = f": {comments[root_var]}" if root_var in comments else ""
        parts.append(_comment(f"---------- {source_system}{comment}", 2))
        parts.append(
            _dump(
                {
                    f"{source_system}_landing": LANDING_MODE,
                    root_var: str(directory.resolve() / "landing" / source_system),
                },
                2,
            )
        )
    parts.append(
        "\n"
        + _note(
            "---------- the tables you capture: one entry each, keyed by table name "
            "(^[a-z][a-z0-9_]*$). One example per format, the package's first sample of it; "
            "each format's required and optional keys are listed above its example. Uncomment "
            "`cdc_tables:` and the examples you need, edit them, delete the `cdc_tables: {}` "
            "line, then run `cdc-dbt scaffold`.",
            2,
        )
        + "  # cdc_tables:\n"
    )
    for source_system, example in format_examples(project, sample_tables(package_dir)).items():
        entry = registry[source_system] or {}
        keys = (
            f"{source_system}: required {', '.join(entry.get('required_keys') or [])}; "
            f"optional {', '.join(entry.get('optional_keys') or []) or 'none'}"
        )
        # inside the commented block, a comment of its own (uncommented: a YAML comment)
        for line in textwrap.wrap(keys, 84):
            parts.append(_comment(f"  # {line}", 2))
        if example is None:
            parts.append(_comment(f"  # (the package has no sample table of {source_system})", 2))
            continue
        table, values = example
        parts.append(_comment(_dump({table: values}, 2), 2))
    parts.append("  cdc_tables: {}\n\n")
    models = (project.get("models") or {}).get(PACKAGE_NAME)
    if isinstance(models, dict):
        parts.append(
            _note(
                "cdc_history: the package's models take the storage format (var file_format) "
                "from here: dbt renders a package's own dbt_project.yml without this project's "
                f"vars. {name}: the package's folder defaults, for the models `cdc-dbt "
                "scaffold` writes here.",
                0,
            )
        )
        package_models = {
            key: value for key, value in models.items() if key in PACKAGE_MODEL_SETTINGS
        }
        parts.append(_dump({"models": {PACKAGE_NAME: package_models, name: models}}, block_depth=4))
    return "".join(parts)


def render_packages_file(package_dir: Path) -> str:
    return _note(
        "The cdc_history package, as installed with the cdc-history wheel. After installing a "
        "newer wheel: cdc-dbt deps, cdc-dbt scaffold, cdc-dbt build (README.md).",
        0,
    ) + _dump({"packages": [{"local": str(package_dir.resolve())}]})


def render_overrides_file() -> str:
    lines = [
        "{#- Written by `cdc-dbt init`; do not edit (a newer `cdc-dbt init` may change it).",
        "    dbt takes an override of its built-in materializations from the root project, not",
        "    from a package, and generate_schema_name from the root project only: these",
        f"    wrappers hand each to the {PACKAGE_NAME} package's own. -#}}",
        "",
    ]
    for materialization, languages in MATERIALIZATIONS:
        header = f"{materialization}, adapter='spark'"
        if languages:
            header += f", supported_languages={languages!r}"
        lines += [
            f"{{% materialization {header} -%}}",
            f"    {{{{ return({PACKAGE_NAME}.materialization_{materialization}_spark()) }}}}",
            "{%- endmaterialization %}",
            "",
        ]
    lines += [
        "{% macro generate_schema_name(custom_schema_name, node) -%}",
        f"    {{{{ return({PACKAGE_NAME}.generate_schema_name(custom_schema_name, node)) }}}}",
        "{%- endmacro %}",
    ]
    return "\n".join(lines) + "\n"


def profile_targets(profiles_file: Path) -> list[str]:
    """The target names of the profile cdc_history in a profiles.yml."""
    profiles = yaml.safe_load(profiles_file.read_text(encoding="utf-8")) or {}
    return list(((profiles.get(PROFILE_NAME) or {}).get("outputs") or {}).keys())


def render_readme(name: str, package_dir: Path, targets: Sequence[str]) -> str:
    shown = ", ".join(f"`{target}`" for target in targets)
    return f"""# {name}

A dbt project on the `{PACKAGE_NAME}` package (the `cdc-history` wheel), created by
`cdc-dbt init`. The package's macros and shared models (the change log, the quarantine)
come from `packages.yml`; this project holds your tables' settings and the models
`cdc-dbt scaffold` generates for them. Run every command with `cdc-dbt` (dbt with the
package's Python UDFs registered), from this folder, in the Python environment that has the
wheel installed. The pages named below are in the cdc-history repository's `docs/`.

## Your tables in five steps

1. **Configure them.** In `dbt_project.yml`, add each table to `cdc_tables`: the commented
   examples there (one per source format, each with its format's required and optional
   keys) show the shape. Every var and its default: `docs/configuration.md`.
2. **Land the files.** `dbt_project.yml` sets each format's `<format>_landing` to
   `{LANDING_MODE}`: the package reads the landed Parquet (or CSV, JSON Lines) folders
   under `<format>_landing_root`, which is `landing/<format>/` here; the comment above each
   says which folders it holds (`docs/landing-and-quarantine.md` and each format's page).
3. **Link the package and scaffold.** `cdc-dbt deps` (once, and after every upgrade: it
   links `dbt_packages/{PACKAGE_NAME}`; offline, no Spark), then `cdc-dbt scaffold`, which
   writes your tables' models and YAML under `models/`. Commit them; `cdc-dbt scaffold
   --check` in CI fails when they are out of date.
4. **Build.** `cdc-dbt build` runs on the profile in `profiles/profiles.yml`, a copy of the
   package's, with the targets
   {shown}.
   `CDC_TARGET` chooses one; `local`, the default, is Spark in this process with its
   metastore and warehouse under `.local/`. `docs/cdc-dbt.md` and
   `docs/running-on-a-cluster.md` say what each target needs.
5. **Query.** `select * from <schema>.<table>_as_of('2024-03-01 10:42:00')`: each table as
   it stood at a point (a time or a change sequence; `docs/point-in-time.md`), beside
   `dim_<table>_current`, `dim_<table>_history` and `<table>_changes`.

## Upgrading the package

Install the newer wheel (`pip install --upgrade cdc_history-<version>-py3-none-any.whl`),
then `cdc-dbt deps`, `cdc-dbt scaffold` (the templates may have changed: commit what it
rewrites) and `cdc-dbt build`. `packages.yml` names the installed package's folder
(`{package_dir}`); install into another environment and run `cdc-dbt init` in an empty
folder to see the path to put there. `macros/cdc_history_overrides.sql` is written by
`cdc-dbt init`; compare it with a new project's after an upgrade.
"""


def create_project(directory: Path, package_dir: Path | None = None) -> list[Path]:
    """Create the project in `directory` (made when missing); the files written, relative."""
    package = (package_dir or dbt_package_dir()).resolve()
    if (directory / "dbt_project.yml").exists():
        raise InitError(
            f"{directory / 'dbt_project.yml'} exists: {directory} already holds a dbt project; "
            "choose a new folder"
        )
    name = project_name(directory)
    profiles = package / "profiles" / "profiles.yml"
    files = {
        Path("dbt_project.yml"): render_project_file(name, directory, package),
        Path("packages.yml"): render_packages_file(package),
        OVERRIDES_FILE: render_overrides_file(),
        Path("README.md"): render_readme(name, package, profile_targets(profiles)),
        Path(".gitignore"): "".join(f"{line}\n" for line in GITIGNORED),
    }
    copied = Path("profiles") / "profiles.yml"
    existing = [path for path in [*files, copied] if (directory / path).exists()]
    clashing = [path for path in existing if path not in KEPT_IF_PRESENT]
    if clashing:
        raise InitError(
            f"{directory} already holds {', '.join(str(path) for path in clashing)}; "
            "cdc-dbt init writes only new files: choose a new folder"
        )
    (directory / "profiles").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(profiles, directory / copied)
    written = [copied]
    for path, text in files.items():
        if path in existing:  # a README.md or .gitignore of yours is kept
            continue
        (directory / path).parent.mkdir(parents=True, exist_ok=True)
        (directory / path).write_text(text, encoding="utf-8")
        written.append(path)
    return sorted(written)


def main(argv: Sequence[str] | None = None) -> int:
    """`cdc-dbt init <dir>`: 0 created, 2 refused."""
    parser = argparse.ArgumentParser(
        prog="cdc-dbt init",
        description=(
            "Create a dbt project of your own in DIR that uses the cdc_history package "
            "(packages.yml); then follow its README.md: configure cdc_tables, land your "
            "files, cdc-dbt deps, cdc-dbt scaffold, cdc-dbt build."
        ),
    )
    parser.add_argument(
        "directory",
        metavar="DIR",
        type=Path,
        help="the new project's folder (created; the project is named after it)",
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    directory = args.directory.resolve()
    try:
        written = create_project(directory)
    except InitError as error:
        print(f"cdc-dbt init: {error}", file=sys.stderr)
        return 2
    print(f"cdc-dbt init: created the dbt project {project_name(directory)} in {directory}:")
    for path in written:
        print(f"  {path}")
    print(f"Next: cd {directory}, then follow README.md (cdc-dbt deps, cdc-dbt scaffold).")
    return 0
