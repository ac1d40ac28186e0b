"""The whole OpenEdge CDC pipeline beside its hand-written baseline, at a given volume (issue 25).

    python -m benchmarks.openedge_pipeline --changes 1000000 --keys 100000
        [--split-share 0.05] [--append-fraction 0.01] [--seed 1]
        [--work .local/bench_openedge_pipeline]
        [--json benchmarks/results/openedge_pipeline.json]

1. Generates, unless `<work>/data/stamp.json` shows the same parameters, the simulator's
   tables captured by the shipped policies (customer level 3, item level 2, visit level 0)
   as Parquet, a share of change records split in two (spec D.7): the units of all but the
   last `--append-fraction` of the changes in `<work>/data/landing` (part 1), the rest in
   `<work>/data/append` (part 2), a later batch.
2. The baseline job (`benchmarks.openedge_baseline_job`) on the landing, timed.
3. A full `cdc-dbt run` of the format's models and of its tables' images, histories, current
   states, as-of, changes and live views in a fresh `<work>/run` (its own Derby metastore),
   timed; then `compare_outputs` of its histories and current states against the baseline's
   (row for row over the baseline's columns).
4. The later batch copied into the landing, the incremental `cdc-dbt run` timed, the
   baseline job run again over everything landed and the outputs after the increment
   compared with its own the same way, the copies removed (the landing stays as generated).
5. Writes the seconds, changes per second end to end, the pipeline/baseline and
   incremental/full ratios and each run's slowest models to the JSON file. Exits 1 when the
   outputs differ after either run or a row was quarantined, 2 when a run failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pyarrow.parquet as pq

from benchmarks.openedge_baseline_job import TABLES
from benchmarks.staging_run import (
    format_models,
    generated_before,
    pipeline_beside_baseline,
    staging_arguments,
)

SELECT = [
    *format_models("openedge_cdc"),
    *[f"int_{table.name}__change_images" for table in TABLES],
    *[f"path:models/marts/{table.name}" for table in TABLES],
]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = staging_arguments(
        __doc__.split("\n")[0], "openedge_pipeline", result="openedge_pipeline.json"
    )
    parser.add_argument("--split-share", type=float, default=0.05)
    parser.add_argument("--append-fraction", type=float, default=0.01)
    return parser.parse_args(argv)


def generate(data: Path, args: argparse.Namespace) -> dict[str, object]:
    """The landing and the later batch for the parameters, reused when already generated."""
    from cdc_simulator.openedge_cdc import CUSTOMER, ITEM, VISIT, emit, write_parquet
    from cdc_simulator.table_model import simulate

    parameters = {
        "changes": args.changes,
        "keys": args.keys,
        "split_share": args.split_share,
        "append_fraction": args.append_fraction,
        "seed": args.seed,
    }
    reused = generated_before(data, parameters)
    if reused is not None:
        return reused
    stamp = data / "stamp.json"
    started = time.monotonic()
    sim = simulate(args.changes, keys=args.keys, seed=args.seed, tables=(CUSTOMER, ITEM, VISIT))
    emitted = emit(sim, split_share=args.split_share, seed=args.seed)
    later = sim.changes[len(sim.changes) - int(len(sim.changes) * args.append_fraction) :]
    later_ids = {id(change) for change in later}
    batches = {
        "landing": [u for u in emitted.units if id(u.change) not in later_ids],
        "append": [u for u in emitted.units if id(u.change) in later_ids],
    }
    for part, (folder, units) in enumerate(batches.items(), start=1):
        records: dict[str, list[dict[str, object]]] = {}
        for unit in units:
            records.setdefault(unit.table, []).extend(unit.records)
        write_parquet(data / folder, [u.tracking for u in units], records, part=part, seed=part)
    info = {
        "parameters": parameters,
        "model_changes": len(sim.changes),
        "later_model_changes": len(later),
        "units": len(emitted.units),
        "later_units": len(batches["append"]),
        "split_records": sum(len(unit.split_kinds) for unit in emitted.units),
        "landed_rows": {
            folder.name: sum(pq.ParquetFile(f).metadata.num_rows for f in folder.glob("*.parquet"))
            for folder in sorted((data / "landing").iterdir())
            if folder.is_dir()
        },
        "generation_seconds": round(time.monotonic() - started, 1),
    }
    stamp.write_text(json.dumps(info, indent=2))
    return info


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    work = args.work.resolve()
    info = generate(work / "data", args)
    landing = work / "data" / "landing"
    return pipeline_beside_baseline(
        work,
        info,
        baseline_module="benchmarks.openedge_baseline_job",
        select=SELECT,
        variables={
            "openedge_cdc_landing": "files",
            "openedge_cdc_landing_root": str(landing),
            "openedge_cdc_landing_format": "parquet",
        },
        tables=[table.name for table in TABLES],
        quarantine="int_openedge_cdc__rows_quarantined",
        result_path=args.json,
    )


if __name__ == "__main__":
    sys.exit(main())
