"""Staging throughput of the OpenEdge CDC format (spec D) at a given volume.

    python -m benchmarks.openedge_staging --changes 1000000 --keys 100000 [--split-share 0.05]
        [--work .local/bench_openedge] [--json benchmarks/results/openedge_staging.json]
        [--seed 1]

1. Generates, unless `<work>/landing/stamp.json` shows the same parameters, the simulator's
   tables captured by the shipped policies (customer level 3, item level 2, visit level 0) as
   Parquet: the tracking table and the two change tables, a share of change records split in
   two (spec D.7).
2. Runs `cdc-dbt run` of the OpenEdge staging and intermediate models (staging, split-record
   merge, pairing, partition and field-delete steps, the canonical change log and the
   quarantine) in a fresh `<work>/run` (its own Derby metastore), timed, then counts the
   canonical changes and the quarantined rows (which must be none) in a Spark session.
3. Writes the wall time, the landed row counts, changes per second and the slowest models
   (from run_results.json) to the JSON file.
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

import pyarrow.parquet as pq

PROJECT_DIR = Path(__file__).resolve().parents[1]
SELECT = ["path:models/staging/openedge_cdc", "path:models/intermediate/openedge_cdc"]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--changes", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=100_000)
    parser.add_argument("--split-share", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=PROJECT_DIR / ".local" / "bench_openedge")
    parser.add_argument(
        "--json", type=Path, default=PROJECT_DIR / "benchmarks/results/openedge_staging.json"
    )
    return parser.parse_args(argv)


def generate(landing: Path, args: argparse.Namespace) -> dict[str, object]:
    """The landing for the parameters, reused when already generated with them."""
    from cdc_simulator.openedge_cdc import CUSTOMER, ITEM, VISIT, emit, write_parquet
    from cdc_simulator.table_model import simulate

    parameters = {
        "changes": args.changes,
        "keys": args.keys,
        "split_share": args.split_share,
        "seed": args.seed,
    }
    stamp = landing / "stamp.json"
    if stamp.exists() and json.loads(stamp.read_text()).get("parameters") == parameters:
        return json.loads(stamp.read_text())
    shutil.rmtree(landing, ignore_errors=True)
    started = time.monotonic()
    sim = simulate(args.changes, keys=args.keys, seed=args.seed, tables=(CUSTOMER, ITEM, VISIT))
    emitted = emit(sim, split_share=args.split_share, seed=args.seed)
    tracking = [unit.tracking for unit in emitted.units]
    records: dict[str, list[dict[str, object]]] = {}
    for unit in emitted.units:
        records.setdefault(unit.table, []).extend(unit.records)
    write_parquet(landing, tracking, records, part=1, seed=args.seed)
    counts = {
        folder.name: sum(pq.ParquetFile(f).metadata.num_rows for f in folder.glob("*.parquet"))
        for folder in sorted(landing.iterdir())
        if folder.is_dir()
    }
    info = {
        "parameters": parameters,
        "model_changes": len(sim.changes),
        "units": len(emitted.units),
        "split_records": sum(len(unit.split_kinds) for unit in emitted.units),
        "landed_rows": counts,
        "generation_seconds": round(time.monotonic() - started, 1),
    }
    stamp.write_text(json.dumps(info, indent=2))
    return info


def count_rows(run_dir: Path) -> dict[str, int]:
    """The canonical changes and quarantined rows the run left, read in a Spark session of its
    own on the run's metastore (after cdc-dbt has exited: Derby lets one process in)."""
    os.environ["CDC_LOCAL_DIR"] = str(run_dir)
    from python_udfs.session import build_spark_session, prepare_environment, spark_settings

    prepare_environment(PROJECT_DIR)
    _target, settings = spark_settings(PROJECT_DIR / "profiles", "local")
    spark = build_spark_session(settings)
    try:
        logged = spark.sql("select count(*) from cdc.int_openedge_cdc__changes_canonical")
        quarantined = spark.sql("select count(*) from cdc.int_openedge_cdc__rows_quarantined")
        return {"logged": logged.first()[0], "quarantined": quarantined.first()[0]}
    finally:
        spark.stop()


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    work = args.work.resolve()
    landing = work / "landing"
    info = generate(landing, args)
    run_dir = work / "run"
    shutil.rmtree(run_dir, ignore_errors=True)
    run_dir.mkdir(parents=True)
    env = {
        **os.environ,
        "CDC_LOCAL_DIR": str(run_dir),
        "DBT_TARGET_PATH": str(run_dir / "target"),
        "DBT_LOG_PATH": str(run_dir / "logs"),
    }
    variables = {
        "openedge_cdc_landing": "files",
        "openedge_cdc_landing_root": str(landing),
        "openedge_cdc_landing_format": "parquet",
    }
    command = [
        str(Path(sys.executable).with_name("cdc-dbt")),
        "run",
        "--select",
        *SELECT,
        "--vars",
        json.dumps(variables),
    ]
    started = time.monotonic()
    done = subprocess.run(command, cwd=PROJECT_DIR, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - started
    (run_dir / "run.log").write_text(done.stdout + done.stderr)
    if done.returncode != 0:
        print(f"cdc-dbt run failed ({done.returncode}); see {run_dir / 'run.log'}")
        return 2
    run_results = json.loads((run_dir / "target" / "run_results.json").read_text())
    models = sorted(
        (
            {"model": r["unique_id"].split(".")[-1], "seconds": round(r["execution_time"], 1)}
            for r in run_results["results"]
        ),
        key=lambda item: -item["seconds"],
    )
    counts = count_rows(run_dir)
    result = {
        **info,
        "run_seconds": round(seconds, 1),
        "changes_per_second": round(info["model_changes"] / seconds),  # type: ignore[operator]
        "logged_changes": counts.get("logged"),
        "quarantined": counts.get("quarantined"),
        "models": models,
        "cpu_count": os.cpu_count(),
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    return 0 if counts.get("quarantined") == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
