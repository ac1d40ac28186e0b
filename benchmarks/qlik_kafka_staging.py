"""Staging throughput of the Qlik Replicate Kafka format (spec B) at a given volume.

    python -m benchmarks.qlik_kafka_staging --changes 1000000 --keys 100000
        [--work .local/bench_qlik_kafka] [--json benchmarks/results/qlik_kafka_staging.json]
        [--seed 1]

1. Generates, unless `<work>/landing/stamp.json` shows the same parameters, the simulator's
   employees and order_lines tables (as the project's customer and order_item) published
   as Qlik Replicate's Kafka target would (cdc_simulator.qlik_kafka: two table versions
   each, a REFRESH baseline, envelopes, partial columnMasks, three partitions per topic)
   as Parquet topic files, 1% of the messages produced twice (at-least-once delivery).
2. Runs `cdc-dbt run` of the Kafka staging and intermediate models (landed files, messages,
   metadata versions, decoding, deduplication, the canonical change log and the quarantine)
   in a fresh `<work>/run` (its own Derby metastore), timed, then counts the canonical
   changes and the quarantined rows (which must be none) in a Spark session.
3. Writes the wall time, the landed message count, messages per second and the slowest
   models (from run_results.json) to the JSON file.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

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
from cdc_simulator.qlik_kafka import KafkaOptions, Producer, write_topics
from cdc_simulator.table_model import EMPLOYEES, ORDER_LINES, TableSpec, simulate

SELECT = format_models("qlik_kafka")
DUPLICATES = 0.01


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = staging_arguments(__doc__.split("\n")[0], "qlik_kafka")
    return parser.parse_args(argv)


def options() -> KafkaOptions:
    return KafkaOptions(source_schema="SALES", topic_prefix="kafka_sales_", versions=2)


def tables() -> tuple[TableSpec, ...]:
    """The simulator's employees and order_lines under the names of the project's two Kafka
    tables, whose topics are sources the scaffold wrote (their columns come from the vars)."""
    return (replace(EMPLOYEES, name="customer"), replace(ORDER_LINES, name="order_item"))


def generate(landing: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The landing for the parameters, reused when already generated with them."""
    parameters = {"changes": args.changes, "keys": args.keys, "seed": args.seed}
    reused = generated_before(landing, parameters)
    if reused is not None:
        return reused
    stamp = landing / "stamp.json"
    started = time.monotonic()
    sim = simulate(args.changes, keys=args.keys, seed=args.seed, tables=tables())
    producer = Producer(sim, options(), seed=args.seed)
    messages = [*producer.metadata(), *producer.baseline(), *producer.changes(sim.changes)]
    rng = random.Random(args.seed)
    write_topics(landing, messages, files=4, duplicates=DUPLICATES, seed=rng.randrange(1 << 30))
    counts = {
        folder.name: sum(pq.ParquetFile(f).metadata.num_rows for f in folder.glob("*.parquet"))
        for folder in sorted(landing.iterdir())
        if folder.is_dir()
    }
    info = {
        "parameters": parameters,
        "model_changes": len(sim.changes),
        "baseline_rows": sum(len(rows) for rows in sim.baseline.values()),
        "landed_messages": counts,
        "generation_seconds": round(time.monotonic() - started, 1),
    }
    stamp.write_text(json.dumps(info, indent=2))
    return info


def dbt_vars(landing: Path) -> dict[str, object]:
    chosen = options()
    return {
        "cdc_tables": {
            spec.name: {
                "source_system": "qlik_kafka",
                "source_schema": chosen.source_schema,
                "topic": chosen.topic(spec.name),
                "key_columns": list(spec.key_columns),
                "columns": {column.name: {"type": column.spark_type} for column in spec.columns},
            }
            for spec in tables()
        },
        "qlik_kafka_landing": "files",
        "qlik_kafka_landing_root": str(landing),
        "qlik_kafka_landing_format": "parquet",
        "qlik_kafka_metadata_topic": chosen.metadata_topic,
        "qlik_kafka_task": chosen.task,
        "qlik_kafka_hex_mask_byte_order": chosen.byte_order,
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    work = args.work.resolve()
    landing = work / "landing"
    info = generate(landing, args)
    run_dir = work / "run"
    try:
        run = timed_run(run_dir, SELECT, dbt_vars(landing))
    except RunFailed as failure:
        print(failure)
        return 2
    # the canonical change log and the quarantine are views: `run` creates them, the counts
    # compute them (timed)
    timings: dict[str, float] = {}
    counts = count_rows(
        run_dir,
        {
            "logged": "select count(*) from cdc.int_qlik_kafka__changes_canonical",
            "logged_changes": "select count(*) from cdc.int_qlik_kafka__changes_canonical"
            " where not is_snapshot",
            "quarantined": "select count(*) from cdc.int_qlik_kafka__rows_quarantined",
        },
        timings,
    )
    landed = sum(info["landed_messages"].values())
    result = {
        **info,
        "run_seconds": run["run_seconds"],
        "landed_messages_per_second": round(landed / run["run_seconds"]),
        "logged": counts["logged"],
        "logged_changes": counts["logged_changes"],
        "quarantined": counts["quarantined"],
        "count_seconds": timings,
        "models": run["models"],
        "cpu_count": os.cpu_count(),
    }
    write_result(args.json, result)
    return 0 if counts["quarantined"] == 0 and counts["logged_changes"] == args.changes else 1


if __name__ == "__main__":
    sys.exit(main())
