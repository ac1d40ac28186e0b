"""`cdc-dbt`: dbt's own command line, run in-process on a SparkSession with our UDFs registered.

    cdc-dbt build                     # exactly `dbt build`, but the Python UDFs exist
    cdc-dbt docs generate
    cdc-dbt test --select stg_qlik_ct__employees
    cdc-dbt scaffold [--check]        # our own: the per-table models and YAML (no Spark, no dbt)
    cdc-dbt serve [--port 10000]      # our own: a SQL endpoint (Spark Thrift Server) on the session
    cdc-dbt build --target thrift     # dbt through that endpoint: no Spark in this process

Plain `dbt` starts a session without the UDFs; the project's on-run-start guard then stops the
build at once and points here.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from python_udfs.metastore_lock import derby_database, held_by_another_process, lock_message
from python_udfs.session import (
    SettingsError,
    build_spark_session,
    prepare_environment,
    project_dir,
    spark_settings,
    start_warm_up,
    target_from_args,
    target_method,
)

# Commands that never open a connection: no Spark session needed.
_OFFLINE_COMMANDS = {"parse", "deps", "clean", "init", "debug", "ls", "list", "--version", "-h"}


def main(argv: Sequence[str] | None = None, callbacks: Sequence[Callable[..., None]] = ()) -> int:
    """Run `cdc-dbt <args>`; `callbacks` receive dbt's events (dbtRunner(callbacks=...))."""
    args = list(sys.argv[1:] if argv is None else argv)
    root = project_dir()
    if args and args[0] == "scaffold":
        from python_udfs.scaffold import main as scaffold

        return scaffold(args[1:], root)
    if args and args[0] == "serve":
        from python_udfs.serve import serve

        return serve(args[1:], root)
    prepare_environment(root)
    opens_spark = bool(args) and args[0] not in _OFFLINE_COMMANDS and args[0] != "--help"
    # `debug` builds no session here, but dbt's connection test opens the same metastore
    if opens_spark or (args and args[0] == "debug"):
        target = target_from_args(args)
        try:
            # a `thrift` target connects to a running endpoint (`cdc-dbt serve`): no Spark here
            thrift = target_method(root / "profiles", target)[1] == "thrift"
            settings = None if thrift else spark_settings(root / "profiles", target)[1]
        except SettingsError as error:
            print(f"cdc-dbt: {error}", file=sys.stderr)
            return 2
        if settings is not None:
            database = derby_database(settings)
            if database is not None and held_by_another_process(database):
                print(lock_message(database), file=sys.stderr)
                return 3
            if opens_spark:
                start_warm_up(build_spark_session(settings))

    from dbt.cli.main import dbtRunner

    result = dbtRunner(callbacks=list(callbacks)).invoke(args)
    if result.exception is not None and not result.success:
        print(f"cdc-dbt: {result.exception}", file=sys.stderr)
    return 0 if result.success else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
