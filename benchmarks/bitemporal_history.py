"""What recording system time costs (docs/history-options.md, "Bitemporal history", issue 26): a
Qlik table with history option bitemporal, its changes landed in batches with a run after each, then
its record rebuilt in one replay of every load time.

    python -m benchmarks.bitemporal_history --changes 1000000 --keys 100000 --batches 5
        [--seed 1] [--work .local/bench_bitemporal]
        [--json benchmarks/results/bitemporal_history.json]

1. Generates, unless `<work>/data/stamp.json` shows the same parameters, the simulator's
   `--changes` changes of the employees table over `--keys` keys (inserts, updates of random
   column subsets, deletes, re-inserts, key updates) as Qlik change-table rows, split in
   change order into `--batches` batches of Parquet files (`<work>/data/batch_<i>`; the
   full load with the first).
2. Copies the project with employees alone, bitemporal (cdc_simulator.project_copy), into
   `<work>/project`.
3. Lands the batches one at a time in `<work>/landing`, with a `cdc-dbt run` after each
   in `<work>/run` (the first a full build, the others incremental), timed: the wall time
   and the seconds of the history (dim_employees_history) and of the record
   (int_employees__history_known).
4. Keeps the record, drops its table and runs it alone: the first build of the record
   over images of `--batches` load times, which replays every one of them (what turning
   the option on for a table with history costs).
5. Checks that the replayed record equals the one the runs wrote (the same facts, learned
   and given up at the same load times: the images were only ever appended) and that the
   versions known now equal the history, row for row. Writes the figures to the JSON file.
   Exits 1 when a check fails, 2 when a run failed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.staging_run import (
    PROJECT_DIR,
    RunFailed,
    count_rows,
    generated_before,
    timed_run,
    write_result,
)
from cdc_simulator.project_copy import project_with_tables
from cdc_simulator.qlik_ct import emit, write_parquet
from cdc_simulator.table_model import EMPLOYEES, simulate

TABLE = EMPLOYEES.name
TABLES = {
    TABLE: {
        "source_system": "qlik_ct",
        "source_schema": "HR",
        "key_columns": list(EMPLOYEES.key_columns),
        "bitemporal": True,
    }
}
RECORD = f"int_{TABLE}__history_known"
HISTORY = f"dim_{TABLE}_history"
# the record's columns but its load time (the replay writes it later)
RECORD_FACTS = f"select * except (loaded_at) from cdc.{RECORD}"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--changes", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=100_000)
    parser.add_argument("--batches", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=PROJECT_DIR / ".local" / "bench_bitemporal")
    parser.add_argument(
        "--json", type=Path, default=PROJECT_DIR / "benchmarks/results/bitemporal_history.json"
    )
    return parser.parse_args(argv)


def generate(data: Path, args: argparse.Namespace) -> dict[str, object]:
    """The batches for the parameters, reused when already generated."""
    parameters = {
        "changes": args.changes,
        "keys": args.keys,
        "batches": args.batches,
        "seed": args.seed,
    }
    reused = generated_before(data, parameters)
    if reused is not None:
        return reused
    started = time.monotonic()
    sim = simulate(args.changes, keys=args.keys, seed=args.seed, tables=(EMPLOYEES,))
    rows = emit(sim.changes, (EMPLOYEES,))[TABLE]
    size = -(-len(rows) // args.batches)
    for index in range(args.batches):
        write_parquet(
            data / f"batch_{index}",
            {TABLE: rows[index * size : (index + 1) * size]},
            sim.baseline if index == 0 else None,
            tables=(EMPLOYEES,),
            files=4,
            seed=args.seed + index,
        )
    info = {
        "parameters": parameters,
        "change_table_rows": len(rows),
        "full_load_rows": len(sim.baseline[TABLE]),
        "generation_seconds": round(time.monotonic() - started, 1),
    }
    (data / "stamp.json").write_text(json.dumps(info, indent=2))
    return info


def land(batch: Path, landing: Path) -> None:
    """A batch's files copied into the landing (the data folder stays as generated)."""
    for folder in batch.iterdir():
        if folder.is_dir():
            shutil.copytree(folder, landing / folder.name, dirs_exist_ok=True)


def model_seconds(run: dict[str, object], name: str) -> float | None:
    models = run["models"]
    assert isinstance(models, list)
    return next((item["seconds"] for item in models if item["model"] == name), None)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    work = args.work.resolve()
    info = generate(work / "data", args)
    landing, run_dir = work / "landing", work / "run"
    shutil.rmtree(landing, ignore_errors=True)
    landing.mkdir(parents=True)
    shutil.rmtree(work / "project", ignore_errors=True)
    project = project_with_tables(work / "project", TABLES)
    variables = {
        "qlik_ct_landing": "files",
        "qlik_ct_landing_root": str(landing),
        "qlik_ct_landing_format": "parquet",
        "cdc_tables": TABLES,
    }
    result: dict[str, object] = {**info, "cpu_count": os.cpu_count(), "runs": []}
    runs = result["runs"]
    assert isinstance(runs, list)
    try:
        for index in range(args.batches):
            land(work / "data" / f"batch_{index}", landing)
            run = timed_run(
                run_dir,
                ["path:models", "package:cdc_history"],  # the copy's models and ours
                variables,
                fresh=index == 0,
                project_dir=project,
                log_name=f"run_{index}.log",
            )
            runs.append(
                {
                    "batch": index,
                    "run_seconds": run["run_seconds"],
                    "history_seconds": model_seconds(run, HISTORY),
                    "record_seconds": model_seconds(run, RECORD),
                    "slowest": run["models"][:8],  # type: ignore[index]
                }
            )
            write_result(args.json, result)
        # in a process of its own: this one's JVM would keep Derby open for cdc-dbt
        subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from pathlib import Path;"
                " from benchmarks.staging_run import count_rows;"
                " count_rows(Path(sys.argv[1]), dict(enumerate(sys.argv[2:])))",
                str(run_dir),
                "drop table if exists cdc.record_of_the_runs",
                f"create table cdc.record_of_the_runs as {RECORD_FACTS}",
                f"drop table cdc.{RECORD}",
            ],
            cwd=PROJECT_DIR,
            check=True,
            capture_output=True,
        )
        replay = timed_run(
            run_dir,
            [RECORD],
            variables,
            fresh=False,
            project_dir=project,
            log_name="replay.log",
        )
        result["replay"] = {
            "run_seconds": replay["run_seconds"],
            "record_seconds": model_seconds(replay, RECORD),
        }
    except RunFailed as failure:
        print(failure)
        write_result(args.json, result)
        return 2
    known_now = (
        f"select * except (known_from, known_to, is_known_now, version_hash)"
        f" from cdc.dim_{TABLE}_history_bitemporal where is_known_now"
    )
    history = f"select * except (valid_to_bucket) from cdc.{HISTORY}"
    checks = count_rows(
        run_dir,
        {
            "replay_differs_from_runs": f"select count(*) from ((select * from"
            f" cdc.record_of_the_runs except all {RECORD_FACTS}) union all ({RECORD_FACTS}"
            " except all select * from cdc.record_of_the_runs))",
            "record_rows": f"select count(*) from cdc.{RECORD}",
            "load_times": f"select count(distinct known_at) from cdc.{RECORD}",
            "history_versions": f"select count(*) from cdc.{HISTORY}",
            "known_now": f"select count(*) from ({known_now})",
            "history_rows_not_known_now": f"select count(*) from (({history}) except all"
            f" ({known_now}))",
            "known_now_not_in_history": f"select count(*) from (({known_now}) except all"
            f" ({history}))",
        },
    )
    result["checks"] = checks
    write_result(args.json, result)
    print(json.dumps(result, indent=2, default=str))
    failed = (
        checks["replay_differs_from_runs"]
        or checks["history_rows_not_known_now"]
        or checks["known_now_not_in_history"]
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
