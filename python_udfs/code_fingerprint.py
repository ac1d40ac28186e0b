"""The project's code, as one digest: what a view or table depends on besides its own SQL.

The project's view and table materializations (macros/materializations/) keep a view or
table whose definition and inputs are unchanged since the run that built it instead of
building it again: the fingerprint joins its compiled SQL, its hooks, its inputs and this
digest, so that a changed model or macro (a table function's body is written by a hook), a
changed Python UDF (a table calls them), a changed dbt_project.yml or different --vars build
every view and table again, once. `cdc-dbt` sets it in the environment before it runs dbt;
without it (plain dbt) nothing is kept.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

import yaml

ENV_NAME = "CDC_CODE_FINGERPRINT"
_UDF_PACKAGE = Path(__file__).resolve().parent
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


def _udf_files() -> list[Path]:
    """The Python UDFs' source files (this package, where the run imports it from), in a
    fixed order: the tables that call them are kept only while they are unchanged."""
    return sorted(path for path in _UDF_PACKAGE.rglob("*.py") if path.is_file())


def _vars_argument(args: Sequence[str]) -> str:
    """The --vars value of a dbt command line ('' without one)."""
    for position, arg in enumerate(args):
        if arg == "--vars" and position + 1 < len(args):
            return args[position + 1]
        if arg.startswith("--vars="):
            return arg.split("=", 1)[1]
    return ""


def code_fingerprint(project: Path, args: Sequence[str]) -> str:
    """A digest of dbt_project.yml, every model and macro file, the Python UDFs' source, the
    command's --vars and the versions of dbt-core, dbt-spark and pyspark."""
    digest = hashlib.sha256()
    for path in [project / "dbt_project.yml", *_code_files(project)]:
        digest.update(str(path.relative_to(project)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    for path in _udf_files():
        digest.update(f"python_udfs/{path.relative_to(_UDF_PACKAGE).as_posix()}\0".encode())
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
