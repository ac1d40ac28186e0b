"""Test tool for test_kill_and_rerun.py and test_standalone_cluster.py, run as a subprocess.

python tests/python/kill_driver.py <step> [--then <step>]...
step: [--schema <schema>] [--land <from> <to>] [--before <statement>]...
      [--after <statement>]... --kill-after <unique_id | -> <dbt args...>

The steps run in order in this one process, on one Spark session (a Spark start and a
cold JVM's warm-up cost 10 to 60 s a process). A step:
- `--schema`: CDC_SCHEMA for this step and the next ones (the profile's schema);
- `--land`: moves every file under <from> to the same path under <to> first (a later batch
  landing between two builds; os.replace keeps each file's modification time);
- runs its --before statements, then `cdc-dbt <dbt args>`, killed for real (SIGKILL: no
  cleanup, no hooks) the moment dbt reports <unique_id> finished (its materialization and
  hooks done), as a crash at that model boundary would leave it (`-`: never killed; a step
  killed ends the process, so only the last step may name a model), then its --after
  statements; each group's rows are printed as one line `before <json>` / `after <json>`:
  a JSON list holding each statement's rows as JSON texts.
A failed dbt command ends the run with its exit code: no later statement or step runs.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from python_udfs.cli import main
from python_udfs.session import (
    build_spark_session,
    prepare_environment,
    project_dir,
    spark_settings,
    stop_spark,
)

USAGE = (
    "usage: kill_driver.py [--schema S] [--land FROM TO] [--before S]... [--after S]... "
    "--kill-after <id|-> <dbt args> [--then <step>]..."
)


@dataclass
class Step:
    schema: str | None = None
    land: list[tuple[Path, Path]] = field(default_factory=list)
    before: list[str] = field(default_factory=list)
    after: list[str] = field(default_factory=list)
    kill_after: str = "-"
    dbt_args: list[str] = field(default_factory=list)


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


def land(source: Path, target: Path) -> None:
    """Every file under source moved to the same relative path under target."""
    for path in sorted(source.rglob("*")):
        if path.is_file():
            destination = target / path.relative_to(source)
            destination.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, destination)


def parse_step(argv: list[str]) -> Step:
    step = Step()
    position = 0
    while position < len(argv) and argv[position] in ("--schema", "--land", "--before", "--after"):
        option = argv[position]
        if option == "--schema":
            step.schema = argv[position + 1]
        elif option == "--land":
            step.land.append((Path(argv[position + 1]), Path(argv[position + 2])))
            position += 1
        else:
            (step.before if option == "--before" else step.after).append(argv[position + 1])
        position += 2
    assert position < len(argv) and argv[position] == "--kill-after", USAGE
    step.kill_after = argv[position + 1]
    step.dbt_args = argv[position + 2 :]
    return step


def parse(argv: list[str]) -> list[Step]:
    """The steps, split at each `--then`; only the last may be killed."""
    parts: list[list[str]] = [[]]
    for arg in argv:
        if arg == "--then":
            parts.append([])
        else:
            parts[-1].append(arg)
    steps = [parse_step(part) for part in parts]
    assert all(step.kill_after == "-" for step in steps[:-1]), (
        "a killed step ends the process: only the last step may name a model to kill after"
    )
    return steps


def run(argv: list[str]) -> int:
    steps = parse(argv)
    # one session for every step: built here, so cdc-dbt leaves it running between steps
    owns_session = len(steps) > 1 or any(step.before or step.after for step in steps)
    if owns_session:
        session()
    code = 0
    for step in steps:
        if step.schema is not None:
            os.environ["CDC_SCHEMA"] = step.schema
        for source, target in step.land:
            land(source, target)
        if step.before:
            print("before " + json.dumps(run_statements(step.before)), flush=True)
        callbacks = [] if step.kill_after == "-" else [kill_after(step.kill_after)]
        code = main(step.dbt_args, callbacks=callbacks)
        if code != 0:
            break
        if step.after:
            print("after " + json.dumps(run_statements(step.after)), flush=True)
    if owns_session:
        # the JVM is this process's, not dbt's: release the metastore as cdc-dbt would
        stop_spark()
    return code


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:]))
