"""The whole Qlik Kafka pipeline beside its hand-written baseline, at a given volume (issue 25).

    python -m benchmarks.qlik_kafka_pipeline --changes 1000000 --keys 100000
        [--append-fraction 0.01] [--seed 1]
        [--work .local/bench_qlik_kafka_pipeline]
        [--json benchmarks/results/qlik_kafka_pipeline.json]

1. Generates, unless `<work>/data/stamp.json` shows the same parameters, the simulator's
   employees and order_lines tables as the project's Kafka tables customer and order_item,
   published as `benchmarks.qlik_kafka_staging` publishes them (two table versions,
   envelopes, partial columnMasks, three partitions per topic, 1 % of the messages landed
   twice) as Parquet topic files: the metadata, the REFRESH baseline and all but the last
   `--append-fraction` of the changes in `<work>/data/landing`, the rest in
   `<work>/data/append` (a later batch).
2. The baseline job (`benchmarks.qlik_kafka_baseline_job`) on the landing, timed.
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
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pyarrow.parquet as pq

from benchmarks.qlik_kafka_baseline_job import TABLES
from benchmarks.qlik_kafka_staging import DUPLICATES, dbt_vars, options, tables
from benchmarks.staging_run import (
    format_models,
    generated_before,
    pipeline_beside_baseline,
    staging_arguments,
)
from cdc_simulator.qlik_kafka import Producer, write_topics
from cdc_simulator.table_model import simulate

SELECT = [
    *format_models("qlik_kafka"),
    *[f"int_{table.name}__change_images" for table in TABLES],
    *[f"path:models/marts/{table.name}" for table in TABLES],
]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = staging_arguments(
        __doc__.split("\n")[0], "qlik_kafka_pipeline", result="qlik_kafka_pipeline.json"
    )
    parser.add_argument("--append-fraction", type=float, default=0.01)
    return parser.parse_args(argv)


def generate(data: Path, args: argparse.Namespace) -> dict[str, object]:
    """The landing and the later batch for the parameters, reused when already generated."""
    parameters = {
        "changes": args.changes,
        "keys": args.keys,
        "append_fraction": args.append_fraction,
        "seed": args.seed,
    }
    reused = generated_before(data, parameters)
    if reused is not None:
        return reused
    stamp = data / "stamp.json"
    data.mkdir(parents=True)
    started = time.monotonic()
    sim = simulate(args.changes, keys=args.keys, seed=args.seed, tables=tables())
    producer = Producer(sim, options(), seed=args.seed)
    later = len(sim.changes) - int(len(sim.changes) * args.append_fraction)
    batches = {
        "landing": [
            *producer.metadata(),
            *producer.baseline(),
            *producer.changes(sim.changes[:later]),
        ],
        "append": producer.changes(sim.changes[later:]),
    }
    rng = random.Random(args.seed)
    for folder, messages in batches.items():
        write_topics(
            data / folder,
            messages,
            files=4,
            duplicates=DUPLICATES,
            seed=rng.randrange(1 << 30),
        )
    info = {
        "parameters": parameters,
        "model_changes": len(sim.changes),
        "later_model_changes": len(sim.changes) - later,
        "baseline_rows": sum(len(rows) for rows in sim.baseline.values()),
        "landed_messages": {
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
    return pipeline_beside_baseline(
        work,
        info,
        baseline_module="benchmarks.qlik_kafka_baseline_job",
        select=SELECT,
        variables=dbt_vars(work / "data" / "landing"),
        tables=[table.name for table in TABLES],
        quarantine="int_qlik_kafka__rows_quarantined",
        result_path=args.json,
    )


if __name__ == "__main__":
    sys.exit(main())
