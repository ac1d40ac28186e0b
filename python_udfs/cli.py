"""`cdc-dbt`: dbt's own command line, run in-process on a SparkSession with our UDFs registered.

    cdc-dbt build                     # exactly `dbt build`, but the Python UDFs exist
    cdc-dbt docs generate
    cdc-dbt test --select stg_qlik_ct__employees
    cdc-dbt scaffold [--check]        # our own: the per-table models and YAML (no Spark, no dbt)

Plain `dbt` starts a session without the UDFs; the project's on-run-start guard then stops the
build at once and points here.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from python_udfs.session import (
    SettingsError,
    build_spark_session,
    prepare_environment,
    project_dir,
    spark_settings,
    start_warm_up,
    target_from_args,
)

# Commands that never open a connection: no Spark session needed.
_OFFLINE_COMMANDS = {"parse", "deps", "clean", "init", "debug", "ls", "list", "--version", "-h"}


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    root = project_dir()
    if args and args[0] == "scaffold":
        from python_udfs.scaffold import main as scaffold

        return scaffold(args[1:], root)
    prepare_environment(root)
    if args and args[0] not in _OFFLINE_COMMANDS and args[0] != "--help":
        try:
            _target, settings = spark_settings(root / "profiles", target_from_args(args))
        except SettingsError as error:
            print(f"cdc-dbt: {error}", file=sys.stderr)
            return 2
        start_warm_up(build_spark_session(settings))

    from dbt.cli.main import dbtRunner

    result = dbtRunner().invoke(args)
    if result.exception is not None and not result.success:
        print(f"cdc-dbt: {result.exception}", file=sys.stderr)
    return 0 if result.success else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
