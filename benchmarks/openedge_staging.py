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
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pyarrow.parquet as pq

from benchmarks.staging_run import (
    RunFailed,
    count_rows,
    format_models,
    generated_before,
    staging_arguments,
    timed_run,
    write_result,
)

SELECT = format_models("openedge_cdc")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = staging_arguments(__doc__.split("\n")[0], "openedge")
    parser.add_argument("--split-share", type=float, default=0.05)
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
    reused = generated_before(landing, parameters)
    if reused is not None:
        return reused
    stamp = landing / "stamp.json"
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


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    work = args.work.resolve()
    landing = work / "landing"
    info = generate(landing, args)
    run_dir = work / "run"
    variables = {
        "openedge_cdc_landing": "files",
        "openedge_cdc_landing_root": str(landing),
        "openedge_cdc_landing_format": "parquet",
    }
    try:
        run = timed_run(run_dir, SELECT, variables)
    except RunFailed as failure:
        print(failure)
        return 2
    counts = count_rows(
        run_dir,
        {
            "logged": "select count(*) from cdc.int_openedge_cdc__changes_canonical",
            "quarantined": "select count(*) from cdc.int_openedge_cdc__rows_quarantined",
        },
    )
    result = {
        **info,
        "run_seconds": run["run_seconds"],
        "changes_per_second": round(info["model_changes"] / run["run_seconds"]),  # type: ignore[operator]
        "logged_changes": counts["logged"],
        "quarantined": counts["quarantined"],
        "models": run["models"],
        "cpu_count": os.cpu_count(),
    }
    write_result(args.json, result)
    return 0 if counts["quarantined"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
