"""Staging throughput of the Oracle GoldenGate format (spec E) at a given volume.

    python -m benchmarks.goldengate_staging --changes 1000000 --keys 100000 [--chunk-size 0]
        [--work .local/bench_goldengate] [--json benchmarks/results/goldengate_staging.json]
        [--seed 1]

1. Generates, unless `<work>/landing/stamp.json` shows the same parameters, the simulator's
   changes of two tables (an order table and a document table with a long body) written by
   `cdc_simulator.goldengate` as decoded trail records and as Big Data JSON messages (the
   order table's), each landed as one Parquet file.
2. Runs `cdc-dbt run` of the GoldenGate staging and intermediate models (both stagings, chunk
   reassembly, transactions and pairing, judgement, the canonical change log and the
   quarantine) in a fresh `<work>/run` (its own Derby metastore), timed, then counts the
   canonical changes and the quarantined rows (which must be none) in a Spark session.
3. Writes the wall time, the landed row counts, records per second and the slowest models
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
from cdc_simulator.table_model import ColumnSpec, TableSpec

SELECT = format_models("goldengate")


def _tables() -> tuple[TableSpec, ...]:
    return (
        TableSpec(
            name="ogg_order",
            columns=(
                ColumnSpec("order_id", "int32"),
                ColumnSpec("status", "string"),
                ColumnSpec("amount", "decimal(10,2)", nullable=True),
            ),
            key_columns=("order_id",),
        ),
        TableSpec(
            name="ogg_document",
            columns=(
                ColumnSpec("doc_id", "int32"),
                ColumnSpec("lang", "string", width=3),
                ColumnSpec("title", "string", nullable=True),
                ColumnSpec("body", "string", nullable=True, width=200),
                ColumnSpec("edited_at", "timestamp", nullable=True),
            ),
            key_columns=("lang", "doc_id"),
        ),
    )


TABLES = _tables()
OPTIONS_NAME = "SALES.OGG_ORDER"
CDC_TABLES: dict[str, object] = {
    spec.name: {
        "source_system": "goldengate",
        "source_schema": "SALES",
        "source_table_name": f"SALES.{spec.name.upper()}",
        "key_columns": list(spec.key_columns),
        "columns": {column.name: {"type": column.spark_type} for column in spec.columns},
    }
    for spec in TABLES
}
CDC_TABLES["ogg_order_json"] = {**CDC_TABLES["ogg_order"], "form": "json"}  # type: ignore[dict-item]


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = staging_arguments(__doc__.split("\n")[0], "goldengate")
    parser.add_argument("--chunk-size", type=int, default=0)
    return parser.parse_args(argv)


def generate(landing: Path, args: argparse.Namespace) -> dict[str, object]:
    """The landing for the parameters, reused when already generated with them."""
    from cdc_simulator.goldengate import Options, Producer, message_table, trail_table
    from cdc_simulator.table_model import simulate

    parameters = {
        "changes": args.changes,
        "keys": args.keys,
        "chunk_size": args.chunk_size,
        "seed": args.seed,
    }
    reused = generated_before(landing, parameters)
    if reused is not None:
        return reused
    stamp = landing / "stamp.json"
    started = time.monotonic()
    sim = simulate(args.changes, keys=args.keys, seed=args.seed, tables=TABLES)
    producer = Producer(
        sim, Options(chunk_size=args.chunk_size, records_per_file=100_000), seed=args.seed
    )
    records = [record for unit in producer.units for record in unit.records]
    orders = OPTIONS_NAME
    messages = [
        unit.message
        for unit in producer.units
        if unit.message and unit.records[0].table_name == orders
    ]
    for folder, table in (
        ("ogg_trail_records", trail_table(records)),
        ("ogg_json_messages", message_table(messages)),
    ):
        (landing / folder).mkdir(parents=True, exist_ok=True)
        pq.write_table(table, landing / folder / "part-00000.parquet")
    info = {
        "parameters": parameters,
        "model_changes": len(sim.changes),
        "landed_rows": {"ogg_trail_records": len(records), "ogg_json_messages": len(messages)},
        "chunked_records": sum(1 for record in records if record.rec_count > 1),
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
        "cdc_tables": CDC_TABLES,
        "goldengate_landing": "files",
        "goldengate_landing_root": str(landing),
        "goldengate_landing_format": "parquet",
    }
    try:
        run = timed_run(run_dir, SELECT, variables)
    except RunFailed as failure:
        print(failure)
        return 2
    counts = count_rows(
        run_dir,
        {
            "logged": "select count(*) from cdc.int_goldengate__changes_canonical",
            "quarantined": "select count(*) from cdc.int_goldengate__rows_quarantined",
        },
    )
    seconds = run["run_seconds"]
    result = {
        **info,
        "run_seconds": seconds,
        "changes_per_second": round(info["model_changes"] / seconds),  # type: ignore[operator]
        "records_per_second": round(
            sum(info["landed_rows"].values()) / seconds  # type: ignore[attr-defined, operator]
        ),
        "logged_changes": counts["logged"],
        "quarantined": counts["quarantined"],
        "models": run["models"],
        "cpu_count": os.cpu_count(),
    }
    write_result(args.json, result)
    return 0 if counts["quarantined"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
