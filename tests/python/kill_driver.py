"""Test tool for test_kill_and_rerun.py, run as a subprocess on the scenario's own metastore.

python tests/python/kill_driver.py [--before <statement>]... [--after <statement>]...
        --kill-after <unique_id | -> <dbt args...>
    `cdc-dbt <dbt args>` in this process, killed for real (SIGKILL: no cleanup, no
    hooks) the moment dbt reports <unique_id> finished (its materialization and hooks
    done), as a crash at that model boundary would leave it; `-`: never killed.
    The --before statements run first and the --after statements once dbt has finished,
    on the session dbt runs on (one process, one Spark start: each costs 10 to 30 s);
    each group's rows are printed as one line `before <json>` / `after <json>`: a JSON
    list holding each statement's rows as JSON texts. A failed dbt command runs no
    --after statement.
python tests/python/kill_driver.py --sql <statement>...
    only the statements (no dbt), printed as the last line, a JSON list as above.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Any

from python_udfs.cli import main
from python_udfs.session import (
    build_spark_session,
    prepare_environment,
    project_dir,
    spark_settings,
    stop_spark,
)


def kill_after(unique_id: str) -> Any:
    def callback(event: Any) -> None:
        if event.info.name == "NodeFinished" and event.data.node_info.unique_id == unique_id:
            sys.stdout.flush()
            os.kill(os.getpid(), signal.SIGKILL)

    return callback


def session() -> Any:
    """The session cdc-dbt would build; built here first, dbt then runs on it and leaves
    its JVM running (cdc-dbt stops only a JVM it started itself)."""
    root = project_dir()
    prepare_environment(root)
    _target, settings = spark_settings(root / "profiles", None)
    return build_spark_session(settings)


def run_statements(statements: list[str]) -> list[list[str]]:
    spark = session()
    results = []
    for statement in statements:
        rows = spark.sql(statement).collect()
        results.append([json.dumps(row.asDict(), default=str, sort_keys=True) for row in rows])
    return results


def parse(argv: list[str]) -> tuple[list[str], list[str], str, list[str]]:
    """(before statements, after statements, the model to kill after, dbt args)."""
    before: list[str] = []
    after: list[str] = []
    position = 0
    while argv[position] in ("--before", "--after"):
        (before if argv[position] == "--before" else after).append(argv[position + 1])
        position += 2
    assert argv[position] == "--kill-after", (
        "usage: kill_driver.py [--before S]... [--after S]... --kill-after <id|-> <dbt args>"
    )
    return before, after, argv[position + 1], argv[position + 2 :]


def run(argv: list[str]) -> int:
    before, after, killed_after, dbt_args = parse(argv)
    if before or after:
        print("before " + json.dumps(run_statements(before)), flush=True)
    callbacks = [] if killed_after == "-" else [kill_after(killed_after)]
    code = main(dbt_args, callbacks=callbacks)
    if code == 0 and after:
        print("after " + json.dumps(run_statements(after)), flush=True)
    if before or after:
        # the JVM is this process's, not dbt's: release the metastore as cdc-dbt would
        stop_spark()
    return code


if __name__ == "__main__":
    if sys.argv[1] == "--sql":
        print(json.dumps(run_statements(sys.argv[2:])))
        stop_spark()
        sys.exit(0)
    sys.exit(run(sys.argv[1:]))
