"""`cdc-dbt`: dbt's own command line, run in-process on a SparkSession with our UDFs registered.

    cdc-dbt build                     # exactly `dbt build`, but the Python UDFs exist
    cdc-dbt docs generate
    cdc-dbt test --select stg_qlik_ct__employees
    cdc-dbt init <dir>                # our own: a dbt project of yours on this package (no Spark)
    cdc-dbt scaffold [--check]        # our own: the per-table models and YAML (no Spark, no dbt)
    cdc-dbt serve [--port 10000]      # our own: a SQL endpoint (Spark Thrift Server) on the session
    cdc-dbt build --target thrift     # dbt through that endpoint: no Spark in this process

Plain `dbt` starts a session without the UDFs; the project's on-run-start guard then stops the
build at once and points here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from python_udfs.code_fingerprint import set_code_fingerprint
from python_udfs.metastore_lock import (
    derby_database,
    lock_message,
    wait_seconds,
    wait_until_released,
)
from python_udfs.session import (
    JVM_EXIT_SECONDS,
    SettingsError,
    build_spark_session,
    prepare_environment,
    project_dir,
    spark_jvm_running,
    spark_log_level,
    spark_settings,
    start_warm_up,
    stop_spark,
    target_from_args,
    target_method,
)

# Set on a session cdc-dbt started itself; the landed-table registration reads and clears it.
LANDED_TABLES_UNREAD = "cdc.landed_tables.unread"
# Commands that never open a connection: no Spark session needed. (`init` is our own, below:
# dbt's would create a project without the package.)
_OFFLINE_COMMANDS = {"parse", "deps", "clean", "debug", "ls", "list", "--version", "-h"}
# Commands that read no var: the format settings' names are not checked before them.
_NO_PROJECT_COMMANDS = {"deps", "clean", "--version", "-h", "--help"}
# Commands that build or check tables: run in the package itself with no table configured,
# they would start Spark to do nothing (_nothing_to_build).
_BUILDING_COMMANDS = {"build", "run", "test", "seed", "snapshot"}


def main(argv: Sequence[str] | None = None, callbacks: Sequence[Callable[..., None]] = ()) -> int:
    """Run `cdc-dbt <args>`; `callbacks` receive dbt's events (dbtRunner(callbacks=...))."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "init":
        from python_udfs.init_project import main as init

        return init(args[1:])
    root = project_dir()
    if args and args[0] == "scaffold":
        from python_udfs.scaffold import main as scaffold

        return scaffold(args[1:], root)
    if args and args[0] == "serve":
        from python_udfs.serve import serve

        return serve(args[1:], root)
    prepare_environment(root)
    # a JVM this call starts (here or in dbt) is stopped before it returns; one a caller
    # started before is the caller's
    callers_jvm = spark_jvm_running()
    try:
        return _run_dbt(root, args, callbacks, in_session=callers_jvm)
    finally:
        if not callers_jvm and not stop_spark(JVM_EXIT_SECONDS):
            print(
                f"cdc-dbt: the Spark JVM had not exited {JVM_EXIT_SECONDS:g} s after its "
                "session stopped; it was killed",
                file=sys.stderr,
            )


def _run_dbt(
    root: Path,
    args: list[str],
    callbacks: Sequence[Callable[..., None]],
    in_session: bool = False,
) -> int:
    """The dbt command, on a session with our UDFs when it opens Spark; 3 when another
    process keeps the embedded metastore open (waited for, bounded: wait_until_released).
    in_session: this process already runs Spark (a caller's session, which dbt will use):
    a lock on the metastore is that session's own, not another process's."""
    opens_spark = bool(args) and args[0] not in _OFFLINE_COMMANDS and args[0] != "--help"
    if args and args[0] not in _NO_PROJECT_COMMANDS:
        problem = _misnamed_setting(_project_of(args, root), args)
        if args[0] in _BUILDING_COMMANDS and not problem:
            problem = _nothing_to_build(_project_of(args, root), args)
        if problem:
            print(f"cdc-dbt: {problem}", file=sys.stderr)
            return 2
    settings: dict[str, str] | None = None
    # `debug` builds no session here, but dbt's connection test opens the same metastore
    if opens_spark or (args and args[0] == "debug"):
        target = target_from_args(args)
        try:
            # a `thrift` target connects to a running endpoint (`cdc-dbt serve`): no Spark here
            thrift = target_method(root / "profiles", target)[1] == "thrift"
            settings = None if thrift else spark_settings(root / "profiles", target)[1]
            if settings is not None:
                spark_log_level()  # a wrong level stops here, before Spark starts
            wait = wait_seconds()
        except (SettingsError, ValueError) as error:
            print(f"cdc-dbt: {error}", file=sys.stderr)
            return 2
        if settings is not None:
            database = derby_database(settings)
            # a holder may be a command that has just ended: its JVM is still exiting
            if database is not None and not in_session and not wait_until_released(database, wait):
                print(lock_message(database, wait), file=sys.stderr)
                return 3
            if opens_spark:
                spark = build_spark_session(settings)
                if not in_session:
                    # a session of its own has read no landed table yet: its first
                    # registration need not refresh them (register_landed_tables)
                    spark.conf.set(LANDED_TABLES_UNREAD, "true")
                start_warm_up(spark)

    if opens_spark:
        set_code_fingerprint(_project_of(args, root), args, settings=settings)

    from dbt.cli.main import dbtRunner

    result = dbtRunner(callbacks=list(callbacks)).invoke(args)
    if result.exception is not None and not result.success:
        print(f"cdc-dbt: {result.exception}", file=sys.stderr)
    return 0 if result.success else 1


def _misnamed_setting(project: Path, args: list[str]) -> str | None:
    """What is wrong with a var of the project (or of --vars) that is named like a format's
    setting but names none (python_udfs.var_defaults.unknown_format_settings), before Spark
    work starts; None when nothing is, or the project has no dbt_project.yml of its own."""
    from python_udfs.scaffold import MisnamedSettingError, ScaffoldError, load_vars

    cli_vars = next(
        (args[position + 1] for position, arg in enumerate(args[:-1]) if arg == "--vars"), None
    )
    if not (project / "dbt_project.yml").is_file():
        return None
    try:
        load_vars(project, cli_vars)
    except MisnamedSettingError as error:
        return str(error)
    except ScaffoldError:
        return None  # the rest is dbt's to say (cdc_validate_config), as it always was
    return None


def _nothing_to_build(project: Path, args: list[str]) -> str | None:
    """What to say when the command would build nothing: the project is the cdc_history
    package itself (this repository's root, or an installed copy) with no table in
    cdc_tables (--vars included), not a project that uses it. None otherwise."""
    import yaml

    from python_udfs.init_project import PACKAGE_NAME
    from python_udfs.scaffold import ScaffoldError, load_vars

    project_file = project / "dbt_project.yml"
    if not project_file.is_file():
        return None
    name = (yaml.safe_load(project_file.read_text()) or {}).get("name")
    if name != PACKAGE_NAME:
        return None
    cli_vars = next(
        (args[position + 1] for position, arg in enumerate(args[:-1]) if arg == "--vars"), None
    )
    try:
        if load_vars(project, cli_vars).get("cdc_tables"):
            return None
    except ScaffoldError:
        return None
    return (
        f"{project} is the {PACKAGE_NAME} dbt package itself, with no table in var cdc_tables: "
        f"`{args[0]}` would build nothing. Build a project that uses it: this repository's "
        "sample project is samples/ (bin/pipeline builds it, or cd samples), and "
        "`cdc-dbt init <dir>` makes one of your own (README)"
    )


def _project_of(args: list[str], root: Path) -> Path:
    """The dbt project the command runs: its --project-dir, else $DBT_PROJECT_DIR, else root."""
    for position, arg in enumerate(args[:-1]):
        if arg == "--project-dir":
            return Path(args[position + 1]).resolve()
    return Path(os.environ.get("DBT_PROJECT_DIR", root)).resolve()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
