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
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pyarrow.parquet as pq

from cdc_simulator.table_model import ColumnSpec, TableSpec

PROJECT_DIR = Path(__file__).resolve().parents[1]
SELECT = ["path:models/staging/goldengate", "path:models/intermediate/goldengate"]


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
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--changes", type=int, default=1_000_000)
    parser.add_argument("--keys", type=int, default=100_000)
    parser.add_argument("--chunk-size", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=PROJECT_DIR / ".local" / "bench_goldengate")
    parser.add_argument(
        "--json", type=Path, default=PROJECT_DIR / "benchmarks/results/goldengate_staging.json"
    )
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
    stamp = landing / "stamp.json"
    if stamp.exists() and json.loads(stamp.read_text()).get("parameters") == parameters:
        return json.loads(stamp.read_text())
    shutil.rmtree(landing, ignore_errors=True)
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


def count_rows(run_dir: Path) -> dict[str, int]:
    """The canonical changes and quarantined rows the run left, read in a Spark session of its
    own on the run's metastore (after cdc-dbt has exited: Derby lets one process in)."""
    os.environ["CDC_LOCAL_DIR"] = str(run_dir)
    from python_udfs.session import build_spark_session, prepare_environment, spark_settings

    prepare_environment(PROJECT_DIR)
    _target, settings = spark_settings(PROJECT_DIR / "profiles", "local")
    spark = build_spark_session(settings)
    try:
        logged = spark.sql("select count(*) from cdc.int_goldengate__changes_canonical")
        quarantined = spark.sql("select count(*) from cdc.int_goldengate__rows_quarantined")
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
        "cdc_tables": CDC_TABLES,
        "goldengate_landing": "files",
        "goldengate_landing_root": str(landing),
        "goldengate_landing_format": "parquet",
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
        "records_per_second": round(
            sum(info["landed_rows"].values()) / seconds  # type: ignore[attr-defined]
        ),
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
