"""The project's code, as one digest: what a view depends on besides its own SQL.

The project's view materialization (macros/materializations/view.sql) keeps a view whose
definition is unchanged since the run that created it instead of creating it again: its
fingerprint joins the view's compiled SQL, its hooks, its parents' columns and this digest,
so that a changed model or macro (a table function's body is written by a hook), a
changed dbt_project.yml or different --vars create every view again, once. `cdc-dbt` sets it in
the environment before it runs dbt; without it (plain dbt) no view is kept.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

import yaml

ENV_NAME = "CDC_CODE_FINGERPRINT"
_PACKAGES = ("dbt-core", "dbt-spark", "pyspark")


def _code_files(project: Path) -> list[Path]:
    """The project's model and macro files and those of its installed dbt packages (SQL,
    YAML, docs), in a fixed order."""
    try:
        settings = yaml.safe_load((project / "dbt_project.yml").read_text()) or {}
    except yaml.YAMLError:
        settings = {}  # dbt itself says what is wrong with it
    folders = [
        project / folder
        for key, default in (("macro-paths", ["macros"]), ("model-paths", ["models"]))
        for folder in settings.get(key, default)
    ]
    folders.append(project / str(settings.get("packages-install-path", "dbt_packages")))
    files = {
        path
        for folder in folders
        if folder.is_dir()
        for path in folder.rglob("*")
        if path.suffix in (".sql", ".yml", ".yaml", ".md") and path.is_file()
    }
    return sorted(files)


def _vars_argument(args: Sequence[str]) -> str:
    """The --vars value of a dbt command line ('' without one)."""
    for position, arg in enumerate(args):
        if arg == "--vars" and position + 1 < len(args):
            return args[position + 1]
        if arg.startswith("--vars="):
            return arg.split("=", 1)[1]
    return ""


def code_fingerprint(project: Path, args: Sequence[str]) -> str:
    """A digest of dbt_project.yml, every model and macro file, the command's --vars and the
    versions of dbt-core, dbt-spark and pyspark."""
    digest = hashlib.sha256()
    for path in [project / "dbt_project.yml", *_code_files(project)]:
        digest.update(str(path.relative_to(project)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    digest.update(_vars_argument(args).encode() + b"\0")
    for package in _PACKAGES:
        try:
            digest.update(f"{package}=={metadata.version(package)}\0".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{package} missing\0".encode())
    return digest.hexdigest()[:32]


def set_code_fingerprint(project: Path, args: Sequence[str]) -> None:
    """Put the project's code fingerprint where its view materialization reads it."""
    os.environ[ENV_NAME] = code_fingerprint(project, args)
