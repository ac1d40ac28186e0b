"""The project's code, as one digest: what a view or table depends on besides its own SQL.

The project's view and table materializations (macros/materializations/) keep a view or
table whose definition and inputs are unchanged since the run that built it instead of
building it again: the fingerprint joins its compiled SQL, its hooks, its inputs and this
digest, so that a changed model or macro (a table function's body is written by a hook), a
changed Python UDF (a table calls them), a changed dbt_project.yml, different --vars, an
option that changes what models read (--empty, --sample, --defer) or a Spark setting that
changes what queries return (the session time zone, ANSI mode) build every view and table
again, once. `cdc-dbt` sets it in the environment before it runs dbt;
without it (plain dbt) nothing is kept.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from importlib import metadata
from pathlib import Path

import yaml

ENV_NAME = "CDC_CODE_FINGERPRINT"
_UDF_PACKAGE = Path(__file__).resolve().parent
_PACKAGES = ("dbt-core", "dbt-spark", "pyspark")


def _code_files(project: Path, packages: bool = True) -> list[Path]:
    """The project's model and macro files and those of its installed dbt packages (SQL,
    YAML, docs), in a fixed order. An installed package is read the same way, through its
    own dbt_project.yml's paths: `dbt deps` installs a `local:` package as a symbolic link
    to its folder, which may hold anything (the repository's package holds the sample
    project that links to it)."""
    try:
        settings = yaml.safe_load((project / "dbt_project.yml").read_text()) or {}
    except (OSError, yaml.YAMLError):
        settings = {}  # dbt itself says what is wrong with it
    folders = [
        project / folder
        for key, default in (("macro-paths", ["macros"]), ("model-paths", ["models"]))
        for folder in settings.get(key, default)
    ]
    files = {
        path
        for folder in folders
        if folder.is_dir()
        for path in _files_under(folder)
        if path.suffix in (".sql", ".yml", ".yaml", ".md")
    }
    if packages:
        installed = project / str(settings.get("packages-install-path", "dbt_packages"))
        for package in sorted(installed.iterdir()) if installed.is_dir() else ():
            if (package / "dbt_project.yml").is_file():
                files.add(package / "dbt_project.yml")
                files.update(_code_files(package, packages=False))
    return sorted(files)


def _files_under(folder: Path) -> list[Path]:
    """Every file under `folder`, following symbolic links (a model folder may be one)."""
    return [
        Path(directory) / name
        for directory, _, names in os.walk(folder, followlinks=True)
        for name in names
        if (Path(directory) / name).is_file()
    ]


def _udf_files() -> list[Path]:
    """The Python UDFs' source files (this package, where the run imports it from), in a
    fixed order: the tables that call them are kept only while they are unchanged."""
    return sorted(path for path in _UDF_PACKAGE.rglob("*.py") if path.is_file())


def _option_value(args: Sequence[str], option: str, default: str = "") -> str:
    """The value of an option of a dbt command line, `--option value` or `--option=value`
    (the last one given, as click takes it), else `default`."""
    value = default
    for position, arg in enumerate(args):
        if arg == option and position + 1 < len(args):
            value = args[position + 1]
        elif arg.startswith(option + "="):
            value = arg.split("=", 1)[1]
    return value


# dbt's options that change what a model reads, not which models run: --empty reads no row
# of any ref or source, --sample and the event-time window read some of them, --defer reads
# unselected parents from another environment's relations (its --state). A run with one of
# them writes what a run without it would not, so its writes must not count as this code's
# (a later plain run would take them for up to date: the incremental skip, kept tables).
# Flags as {option: (its environment variable, its negation)}; options with a value as
# {option: its environment variable}.
_CONTENT_FLAGS = {
    "--empty": ("DBT_EMPTY", "--no-empty"),
    "--defer": ("DBT_DEFER", "--no-defer"),
    "--favor-state": ("DBT_FAVOR_STATE", "--no-favor-state"),
}
_CONTENT_VALUES = {
    "--sample": "DBT_SAMPLE",
    "--event-time-start": "DBT_EVENT_TIME_START",
    "--event-time-end": "DBT_EVENT_TIME_END",
    "--defer-state": "DBT_DEFER_STATE",
    "--state": "DBT_STATE",
}
# what click takes for true in a boolean option's environment variable
_TRUE = frozenset({"1", "true", "t", "yes", "y", "on"})


def _content_arguments(args: Sequence[str], environ: Mapping[str, str]) -> str:
    """The options of a dbt command line (or their DBT_* environment variables, which the
    command line overrides) that change what its models read, as one canonical text; ''
    for a plain run. The state folder counts only when a run defers to it (with --state
    alone it only selects)."""
    chosen: dict[str, str] = {}
    for flag, (variable, negation) in _CONTENT_FLAGS.items():
        given = [arg for arg in args if arg in (flag, negation)]
        if given:
            chosen[flag] = "on" if given[-1] == flag else ""
        else:
            chosen[flag] = "on" if environ.get(variable, "").strip().lower() in _TRUE else ""
    for option, variable in _CONTENT_VALUES.items():
        chosen[option] = _option_value(args, option, environ.get(variable, ""))
    if not chosen["--defer"]:
        chosen["--defer-state"] = chosen["--state"] = chosen["--favor-state"] = ""
    return "\n".join(f"{option}={value}" for option, value in chosen.items() if value)


# Spark settings that decide what a query returns: the session time zone (what a timestamp
# without a zone means, and a view keeps the settings it was created under), ANSI mode (a
# failed cast: NULL or an error), the duplicate map key policy, case sensitivity, every
# legacy behaviour. A run under other values must not keep what the last one wrote. Those
# that decide only how or where a query runs are left out, so tuning them (the shuffle
# partitions for a larger run, adaptive execution, code generation, file splits, the
# warehouse folder) rebuilds nothing.
_NEUTRAL_SETTINGS = frozenset(
    {
        "spark.sql.warehouse.dir",
        "spark.sql.catalogImplementation",
        "spark.sql.shuffle.partitions",
        "spark.sql.autoBroadcastJoinThreshold",
    }
)
_NEUTRAL_PREFIXES = ("spark.sql.adaptive.", "spark.sql.codegen.", "spark.sql.files.")


def _content_settings(settings: Mapping[str, str]) -> str:
    """The Spark SQL settings of the profile's target that change what a query returns, one
    `key=value` a line in key order (empty when there is none)."""
    return "\n".join(
        f"{key}={settings[key]}"
        for key in sorted(settings)
        if key.startswith("spark.sql.")
        and key not in _NEUTRAL_SETTINGS
        and not key.startswith(_NEUTRAL_PREFIXES)
    )


def code_fingerprint(
    project: Path,
    args: Sequence[str],
    environ: Mapping[str, str] | None = None,
    settings: Mapping[str, str] | None = None,
) -> str:
    """A digest of dbt_project.yml, every model and macro file, the Python UDFs' source, the
    command's --vars and its options that change what models read (_content_arguments;
    `environ` defaults to this process's environment), the Spark settings the session runs
    under that change what queries return (`settings`: the target's, as the profile renders
    them; _content_settings) and the versions of dbt-core, dbt-spark and pyspark."""
    digest = hashlib.sha256()
    for path in [project / "dbt_project.yml", *_code_files(project)]:
        digest.update(str(path.relative_to(project)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    for path in _udf_files():
        digest.update(f"python_udfs/{path.relative_to(_UDF_PACKAGE).as_posix()}\0".encode())
        digest.update(path.read_bytes() + b"\0")
    digest.update(_option_value(args, "--vars").encode() + b"\0")
    content = _content_arguments(args, os.environ if environ is None else environ)
    if content:  # a plain run's digest is the one it always was
        digest.update(b"content options\0" + content.encode() + b"\0")
    spark_sql = _content_settings(settings or {})
    if spark_sql:
        digest.update(b"spark settings\0" + spark_sql.encode() + b"\0")
    for package in _PACKAGES:
        try:
            digest.update(f"{package}=={metadata.version(package)}\0".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{package} missing\0".encode())
    return digest.hexdigest()[:32]


def set_code_fingerprint(
    project: Path, args: Sequence[str], settings: Mapping[str, str] | None = None
) -> None:
    """Put the project's code fingerprint where its view materialization reads it; `settings`:
    the Spark settings of the session the command runs on (none: a `thrift` target's
    endpoint, whose settings are its own)."""
    os.environ[ENV_NAME] = code_fingerprint(project, args, settings=settings)
