"""The whole GoldenGate trail pipeline beside its hand-written baseline, at a given volume
(issue 25).

    python -m benchmarks.goldengate_pipeline --changes 1000000 --keys 100000
        [--chunk-size 0] [--append-fraction 0.01] [--seed 1]
        [--work .local/bench_goldengate_pipeline]
        [--json benchmarks/results/goldengate_pipeline.json]

1. Generates, unless `<work>/data/stamp.json` shows the same parameters, the simulator's order
   and document tables (`benchmarks.goldengate_staging`'s) written by
   `cdc_simulator.goldengate` as decoded trail records (a file rollover every 100,000
   records; long values in chunks when `--chunk-size` is above 0): the records of all but the
   last `--append-fraction` of the changes in `<work>/data/landing/ogg_trail_records`, the
   rest in `<work>/data/append` (a later batch). The Big Data JSON folder is landed empty: the
   baseline handles the trail form, so the project's tables here are the trail's two.
2. The baseline job (`benchmarks.goldengate_baseline_job`) on the landing, timed.
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

from benchmarks.goldengate_baseline_job import TRAIL
from benchmarks.goldengate_staging import CDC_TABLES, TABLES
from benchmarks.staging_run import (
    format_models,
    generated_before,
    pipeline_beside_baseline,
    staging_arguments,
)

JSON_FOLDER = "ogg_json_messages"
TRAIL_TABLES = {spec.name: CDC_TABLES[spec.name] for spec in TABLES}
# trail records written to the landing's Parquet file at a time (one row group each)
WRITE_BATCH = 200_000
SELECT = [
    *format_models("goldengate"),
    *[f"int_{spec.name}__change_images" for spec in TABLES],
    *[f"path:models/marts/{spec.name}" for spec in TABLES],
]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = staging_arguments(
        __doc__.split("\n")[0], "goldengate_pipeline", result="goldengate_pipeline.json"
    )
    parser.add_argument("--chunk-size", type=int, default=0)
    parser.add_argument("--append-fraction", type=float, default=0.01)
    return parser.parse_args(argv)


def generate(data: Path, args: argparse.Namespace) -> dict[str, object]:
    """The landing and the later batch for the parameters, reused when already generated."""
    from cdc_simulator.goldengate import (
        Options,
        Producer,
        TrailRecord,
        message_table,
        trail_table,
    )
    from cdc_simulator.table_model import simulate

    parameters = {
        "changes": args.changes,
        "keys": args.keys,
        "chunk_size": args.chunk_size,
        "append_fraction": args.append_fraction,
        "seed": args.seed,
    }
    reused = generated_before(data, parameters)
    if reused is not None:
        return reused
    stamp = data / "stamp.json"
    started = time.monotonic()
    sim = simulate(args.changes, keys=args.keys, seed=args.seed, tables=TABLES)
    options = Options(chunk_size=args.chunk_size, records_per_file=100_000)
    baseline_rows = sum(len(sim.baseline[spec.name]) for spec in sim.tables)
    # one unit per baseline row and per change; the last ones are the later batch
    unit_count = baseline_rows + len(sim.changes)
    later = unit_count - int(len(sim.changes) * args.append_fraction)
    # the units are produced and written a batch at a time: held all at once, 5 M changes'
    # records took more than the machine's 24 GiB (BENCHMARKS.md section 38)
    counts = {"landing": 0, "append": 0}
    chunked = 0
    writers: dict[str, pq.ParquetWriter] = {}
    pending: dict[str, list[TrailRecord]] = {"landing": [], "append": []}

    def flush(folder: str) -> None:
        if not pending[folder]:
            return
        table = trail_table(pending[folder])
        if folder not in writers:
            (data / folder / TRAIL).mkdir(parents=True)
            writers[folder] = pq.ParquetWriter(
                data / folder / TRAIL / "part-00000.parquet", table.schema
            )
        writers[folder].write_table(table)
        pending[folder].clear()

    producer = Producer(sim, options, seed=args.seed, stream=True)
    for index, unit in enumerate(producer.produce()):
        folder = "landing" if index < later else "append"
        pending[folder].extend(unit.records)
        counts[folder] += len(unit.records)
        chunked += sum(1 for record in unit.records if record.rec_count > 1)
        if len(pending[folder]) >= WRITE_BATCH:
            flush(folder)
    for folder in pending:
        flush(folder)
        if folder in writers:
            writers[folder].close()
        else:  # nothing produced for it: an empty file, as before
            (data / folder / TRAIL).mkdir(parents=True)
            pq.write_table(trail_table([]), data / folder / TRAIL / "part-00000.parquet")
    (data / "landing" / JSON_FOLDER).mkdir()
    pq.write_table(message_table([]), data / "landing" / JSON_FOLDER / "part-00000.parquet")
    info = {
        "parameters": parameters,
        "model_changes": len(sim.changes),
        "later_model_changes": unit_count - later,
        "landed_records": counts["landing"],
        "later_records": counts["append"],
        "chunked_records": chunked,
        "generation_seconds": round(time.monotonic() - started, 1),
    }
    stamp.write_text(json.dumps(info, indent=2))
    return info


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    work = args.work.resolve()
    info = generate(work / "data", args)
    return pipeline_beside_baseline(
        work,
        info,
        baseline_module="benchmarks.goldengate_baseline_job",
        select=SELECT,
        variables={
            "cdc_tables": TRAIL_TABLES,
            "goldengate_landing": "files",
            "goldengate_landing_root": str(work / "data" / "landing"),
            "goldengate_landing_format": "parquet",
        },
        tables=list(TRAIL_TABLES),
        quarantine="int_goldengate__rows_quarantined",
        result_path=args.json,
    )


if __name__ == "__main__":
    sys.exit(main())
