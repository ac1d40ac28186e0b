"""Test tool for test_kill_and_rerun.py, run as a subprocess on the scenario's own metastore.

python tests/python/kill_driver.py --kill-after <unique_id | -> <dbt args...>
    `cdc-dbt <dbt args>` in this process, killed for real (SIGKILL: no cleanup, no
    hooks) the moment dbt reports <unique_id> finished (its materialization and hooks
    done), as a crash at that model boundary would leave it; `-`: never killed.
python tests/python/kill_driver.py --sql <statement>...
    runs the statements on a session built as cdc-dbt builds it and prints, as the last
    line, a JSON list holding each statement's rows as JSON texts.
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
)


def kill_after(unique_id: str) -> Any:
    def callback(event: Any) -> None:
        if event.info.name == "NodeFinished" and event.data.node_info.unique_id == unique_id:
            sys.stdout.flush()
            os.kill(os.getpid(), signal.SIGKILL)

    return callback


def run_statements(statements: list[str]) -> int:
    root = project_dir()
    prepare_environment(root)
    _target, settings = spark_settings(root / "profiles", None)
    spark = build_spark_session(settings)
    results = []
    for statement in statements:
        rows = spark.sql(statement).collect()
        results.append([json.dumps(row.asDict(), default=str, sort_keys=True) for row in rows])
    print(json.dumps(results))
    return 0


if __name__ == "__main__":
    if sys.argv[1] == "--sql":
        sys.exit(run_statements(sys.argv[2:]))
    assert sys.argv[1] == "--kill-after", "usage: kill_driver.py --kill-after <id|-> <dbt args>"
    callbacks = [] if sys.argv[2] == "-" else [kill_after(sys.argv[2])]
    sys.exit(main(sys.argv[3:], callbacks=callbacks))
