"""The full_snapshot format at volume (docs/full-snapshots.md, issue 26): what a first run over
many snapshots and a run that adds one more cost.

    python -m benchmarks.full_snapshot_pipeline --keys 200000 --snapshots 10
        [--change-share 0.02] [--seed 1] [--work .local/bench_full_snapshot]
        [--json benchmarks/results/full_snapshot_pipeline.json]

1. Generates, unless `<work>/data/stamp.json` shows the same parameters, `--snapshots` daily
   snapshots of a price list of `--keys` rows (sku, title, price, in_stock) as Parquet, each
   differing from the one before in `--change-share` of its keys (half updated, a quarter
   deleted, a quarter new), in `<work>/data/landing/price_list_extracts`, and one snapshot
   more in `<work>/data/append`.
2. A full `cdc-dbt run` of the format's models and of price_list's images, history, current
   state, as-of, changes and live views in a fresh `<work>/run`, timed.
3. The snapshot more copied in, an incremental `cdc-dbt run` timed, the copy removed.
4. Counts the log's changes (they must equal the generator's) and the current state's rows
   (they must equal the last snapshot's); writes the seconds, snapshot rows and changes per
   second, the incremental/full ratio and each run's slowest models to the JSON file. Exits 1
   when a count differs or a row was quarantined, 2 when a run failed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from collections.abc import Sequence
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from benchmarks.staging_run import (
    PROJECT_DIR,
    RunFailed,
    count_rows,
    format_models,
    generated_before,
    timed_run,
    write_result,
)

TABLE = "price_list"
LANDED = "price_list_extracts"
SELECT = [
    *format_models("full_snapshot"),
    f"int_{TABLE}__change_images",
    f"path:models/marts/{TABLE}",
]
SCHEMA = pa.schema(
    [
        ("sku", pa.string()),
        ("title", pa.string()),
        ("price", pa.decimal128(10, 2)),
        ("in_stock", pa.int32()),
    ]
)
START = datetime(2024, 1, 1)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keys", type=int, default=200_000)
    parser.add_argument("--snapshots", type=int, default=10)
    parser.add_argument("--change-share", type=float, default=0.02)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=PROJECT_DIR / ".local" / "bench_full_snapshot")
    parser.add_argument(
        "--json",
        type=Path,
        default=PROJECT_DIR / "benchmarks/results/full_snapshot_pipeline.json",
    )
    return parser.parse_args(argv)


def _write(path: Path, keys: np.ndarray, prices: np.ndarray, stock: np.ndarray) -> None:
    table = pa.Table.from_arrays(
        [
            pa.array([f"sku{key:09d}" for key in keys.tolist()], type=pa.string()),
            pa.array([f"article {key}" for key in keys.tolist()], type=pa.string()),
            pa.array([Decimal(int(cents)).scaleb(-2) for cents in prices.tolist()], SCHEMA[2].type),
            pa.array(stock, type=pa.int32()),
        ],
        schema=SCHEMA,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path)


def generate(data: Path, args: argparse.Namespace) -> dict[str, object]:
    """The snapshots for the parameters, reused when already generated. Returns the
    generator's counts: rows landed, and the changes the rule must find."""
    parameters = {
        "keys": args.keys,
        "snapshots": args.snapshots,
        "change_share": args.change_share,
        "seed": args.seed,
    }
    reused = generated_before(data, parameters)
    if reused is not None:
        return reused
    stamp = data / "stamp.json"
    started = time.monotonic()
    rng = np.random.default_rng(args.seed)
    keys = np.arange(args.keys)
    prices = rng.integers(100, 100_000, args.keys)
    stock = rng.integers(0, 500, args.keys, dtype=np.int32)
    next_key = args.keys
    changes = {"I": len(keys), "U": 0, "D": 0}  # the first snapshot: every row inserted
    landed = {"landing": 0, "append": 0}
    for number in range(args.snapshots + 1):
        if number:
            changed = max(1, int(len(keys) * args.change_share))
            chosen = rng.choice(len(keys), changed, replace=False)
            updated, deleted = chosen[: changed // 2], chosen[changed // 2 : changed * 3 // 4]
            prices[updated] += 1
            keep = np.ones(len(keys), dtype=bool)
            keep[deleted] = False
            keys, prices, stock = keys[keep], prices[keep], stock[keep]
            added = changed - len(updated) - len(deleted)
            keys = np.concatenate([keys, np.arange(next_key, next_key + added)])
            prices = np.concatenate([prices, rng.integers(100, 100_000, added)])
            stock = np.concatenate([stock, rng.integers(0, 500, added, dtype=np.int32)])
            next_key += added
            changes["U"] += len(updated)
            changes["D"] += len(deleted)
            changes["I"] += added
        folder = "append" if number == args.snapshots else "landing"
        stem = (START + timedelta(days=number)).strftime("%Y-%m-%dT%H-%M-%SZ")
        _write(data / folder / LANDED / f"{stem}.parquet", keys, prices, stock)
        landed[folder] += len(keys)
        if number == args.snapshots - 1:
            changes_before_append = dict(changes)
    info = {
        "parameters": parameters,
        "landed_rows": landed,
        "model_changes": sum(changes_before_append.values()),
        "model_changes_by_op": changes_before_append,
        "later_model_changes": sum(changes.values()) - sum(changes_before_append.values()),
        "last_snapshot_rows": len(keys),
        "generation_seconds": round(time.monotonic() - started, 1),
    }
    stamp.write_text(json.dumps(info, indent=2))
    return info


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    work = args.work.resolve()
    info = generate(work / "data", args)
    landing, later = work / "data" / "landing", work / "data" / "append"
    variables = {
        "full_snapshot_landing": "files",
        "full_snapshot_landing_root": str(landing),
        "full_snapshot_landing_format": "parquet",
        "cdc_tables": {
            TABLE: {
                "source_system": "full_snapshot",
                "landed_table": LANDED,
                "key_columns": ["sku"],
                "columns": {
                    "sku": "string",
                    "title": "string",
                    "price": "decimal(10,2)",
                    "in_stock": "int",
                },
            }
        },
    }
    run_dir = work / "run"
    result: dict[str, object] = {**info, "cpu_count": os.cpu_count()}
    copied = []
    try:
        full = timed_run(run_dir, SELECT, variables)
        result["full_run"] = full
        for file in (later / LANDED).glob("*.parquet"):
            target = landing / LANDED / file.name
            shutil.copy2(file, target)
            copied.append(target)
        incremental = timed_run(run_dir, SELECT, variables, fresh=False)
        result["incremental_run"] = incremental
    except RunFailed as failure:
        print(failure)
        write_result(args.json, result)
        return 2
    finally:
        for target in copied:
            target.unlink()
    counts = count_rows(
        run_dir,
        {
            "changes": "select count(*) from cdc.int_full_snapshot__changes_canonical",
            "current_rows": f"select count(*) from cdc.dim_{TABLE}_current",
            "quarantined": "select count(*) from cdc.int_full_snapshot__rows_quarantined",
        },
    )
    full_seconds = float(full["run_seconds"])  # type: ignore[arg-type]
    incremental_seconds = float(incremental["run_seconds"])  # type: ignore[arg-type]
    expected_changes = int(info["model_changes"]) + int(info["later_model_changes"])  # type: ignore[call-overload]
    result.update(
        {
            "counts": counts,
            "expected_changes": expected_changes,
            "snapshot_rows_per_second": round(
                int(info["landed_rows"]["landing"]) / full_seconds  # type: ignore[index]
            ),
            "changes_per_second": round(int(info["model_changes"]) / full_seconds),  # type: ignore[call-overload]
            "incremental_over_full": round(incremental_seconds / full_seconds, 2),
        }
    )
    write_result(args.json, result)
    good = (
        counts["changes"] == expected_changes
        and counts["current_rows"] == info["last_snapshot_rows"]
        and counts["quarantined"] == 0
    )
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
