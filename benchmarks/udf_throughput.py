"""Throughput (rows/s) of the registered UDFs beside a row-at-a-time UDF and pure Spark SQL.

Issue item 1: mask decoding and table_key parsing, each measured three ways on the same cached
DataFrame in the same Spark session (built by `python_udfs.session` exactly as the pipeline
builds it, so the registered UDFs are the ones dbt calls):

* registered: the vectorized Arrow UDF, called from SQL (`decode_change_mask(mask, bit_count)`);
* row-at-a-time: `pyspark.sql.functions.udf(useArrow=False)` around the pure-Python reference;
* Spark SQL: built-in expressions only (table_key: the unquoted subset, see `KEY_SQL`).

Masks are real simulator change tables (`cdc_simulator.qlik_ct`, cached under --local-dir);
table keys are synthesised with `format_table_key`. Results are checked to agree before timing.
Each run writes the result column to Spark's `noop` sink (full evaluation, nothing collected).

    python -m benchmarks.udf_throughput [--rows N] [--keys N] [--repeats N] [--json PATH]
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import platform
import random
import shlex
import shutil
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.parquet as pq

from python_udfs.change_mask import ChangeMaskError, decode_change_mask
from python_udfs.spark import MASK_RESULT, TABLE_KEY_RESULT
from python_udfs.table_key import TableKeyError, format_table_key, parse_table_key
from python_udfs.table_key_batch import SIMPLE_KEY

if TYPE_CHECKING:  # pragma: no cover
    from pyspark.sql import Column, DataFrame, SparkSession

PROJECT_DIR = Path(__file__).resolve().parents[1]
NULL_MASKS = "named_struct('positions', CAST(NULL AS ARRAY<INT>), 'error', {error})"
_HEX = "'0123456789ABCDEF'"
# Bit i of a little-endian mask is bit i % 4 of hex digit 2 * (i div 8) + 2 - (i % 8) div 4;
# digits are looked up with instr (2-4x faster here than conv(hex(byte), 16, 10) per byte).
_BITS = (
    "transform(array(hex(mask)), h -> filter(sequence(0, length(h) * 4 - 1), i -> "
    f"shiftright(instr({_HEX}, substr(h, 2 * (i div 8) + 2 - (i % 8) div 4, 1)) - 1, i % 4)"
    " & 1 = 1))[0]"
)
_CHECKED = (
    f"transform(array(CASE WHEN octet_length(mask) = 0 THEN array() ELSE {_BITS} END), p -> "
    "CASE WHEN coalesce(array_max(p), -1) >= bit_count THEN "
    + NULL_MASKS.format(
        error="concat('bit ', array_max(p), ' set but the table has ', bit_count, "
        "if(bit_count = 1, ' column', ' columns'))"
    )
    + " ELSE named_struct('positions', p, 'error', CAST(NULL AS STRING)) END)[0]"
)
MASK_SQL = (
    "CASE WHEN mask IS NULL THEN "
    + NULL_MASKS.format(error="CAST(NULL AS STRING)")
    + " WHEN bit_count IS NULL THEN "
    + NULL_MASKS.format(error="'column count is null'")
    + " WHEN bit_count < 0 THEN "
    + NULL_MASKS.format(error="concat('column count ', bit_count, ' is negative')")
    + " WHEN octet_length(mask) > 128 THEN "
    + NULL_MASKS.format(error="'mask longer than 128 bytes'")
    + f" ELSE {_CHECKED} END"
)
SQL_KEY_SUBSET = "unquoted valid keys (no '\"', one '=' per identifier; nulls)"
_SIMPLE_LITERAL = "'" + SIMPLE_KEY.replace("\\", "\\\\").replace("'", "\\'") + "'"
_NO_PAIRS = "CAST(NULL AS ARRAY<STRUCT<column: STRING, value: STRING>>)"
KEY_SQL = (
    f"CASE WHEN key IS NULL THEN named_struct('pairs', {_NO_PAIRS}, 'error', CAST(NULL AS STRING))"
    f" WHEN key RLIKE {_SIMPLE_LITERAL} THEN named_struct('pairs', transform(split(key, '[+]'),"
    " p -> named_struct('column', substring_index(p, '=', 1), 'value',"
    " substr(p, instr(p, '=') + 1))), 'error', CAST(NULL AS STRING))"
    f" ELSE named_struct('pairs', {_NO_PAIRS}, 'error', 'not handled by the SQL version') END"
)
KEY_SUBSET_SQL = f"key IS NULL OR key RLIKE {_SIMPLE_LITERAL}"
_QUOTED_VALUES = ("Smith, John", "A+B", 'say "hi"', "C:\\temp", " padded", "x=y", "<b>", "a;b")


def row_decode_change_mask(mask: bytes | None, bit_count: int | None) -> tuple[Any, Any]:
    """The reference decoder for one row, as (positions, error) like the registered UDF."""
    if mask is not None and bit_count is None:
        return None, "column count is null"
    try:
        return decode_change_mask(mask, bit_count or 0), None
    except ChangeMaskError as error:
        return None, str(error)


def row_parse_table_key(key: str | None) -> tuple[Any, Any]:
    """The reference parser for one row, as (pairs, error) like the registered UDF."""
    try:
        return parse_table_key(key), None
    except TableKeyError as error:
        return None, str(error)


def rates(rows: int, seconds: list[float]) -> dict[str, float]:
    """Median, min and max rows/s over the runs after the first (a discarded warm-up)."""
    kept = seconds[1:] or seconds
    median = statistics.median(kept)
    return {"median": rows / median, "min": rows / max(kept), "max": rows / min(kept)}


def start_session(local_dir: Path) -> SparkSession:
    """The pipeline's session (profile `local`, UDFs registered) on a private metastore."""
    from python_udfs.session import build_spark_session, prepare_environment, spark_settings

    os.environ["CDC_LOCAL_DIR"] = str(local_dir)  # embedded Derby: one process per folder
    for name in ("CDC_METASTORE_URL", "CDC_WAREHOUSE_DIR"):
        os.environ.pop(name, None)
    os.environ.setdefault("CDC_SHUFFLE_PARTITIONS", str(os.cpu_count() or 2))
    prepare_environment(PROJECT_DIR)
    _target, settings = spark_settings(PROJECT_DIR / "profiles", "local")
    settings["spark.ui.showConsoleProgress"] = "false"
    return build_spark_session(settings)


def mask_frame(spark: SparkSession, rows: int, seed: int, local_dir: Path) -> DataFrame:
    """`rows` (mask, bit_count) rows of simulated change tables, generated once per size."""
    from pyspark.sql import DataFrame
    from pyspark.sql import functions as F

    from cdc_simulator.qlik_ct import generate_landing

    changes = math.ceil(rows / 1.4 / 10_000) * 10_000  # ~1.53 change-table rows per change
    landing = local_dir / f"qlik_ct_c{changes}_s{seed}"
    if not (landing / "_COMPLETE").exists():
        shutil.rmtree(landing, ignore_errors=True)
        print(f"generating {changes:,} changes into {landing} ...", flush=True)
        generate_landing(landing, changes=changes, keys=100_000, seed=seed)
        (landing / "_COMPLETE").touch()
    parts = []
    for table in sorted(landing.glob("*__ct")):
        frame = spark.read.parquet(str(table))  # bit count = all change-table columns
        mask = F.col("header__change_mask").alias("mask")
        parts.append(frame.select(mask, F.lit(len(frame.columns)).alias("bit_count")))
    masks = functools.reduce(DataFrame.unionByName, parts)
    repeat = math.ceil(rows / masks.count())  # only when the simulator fell short
    return functools.reduce(DataFrame.unionByName, [masks] * repeat).limit(rows)


def key_frame(
    spark: SparkSession, keys: int, quoted: float, seed: int, local_dir: Path
) -> DataFrame:
    """`keys` IDM table_keys: 60% `idu=N`, 30% two columns, 10% three; `quoted` need quotes."""
    rng = random.Random(seed)
    texts = []
    for _ in range(keys):
        shape = rng.choices((1, 2, 3), weights=(6, 3, 1))[0]
        values = [str(rng.randrange(1, 10_000_000))]
        if shape > 1:
            values = [f"{rng.choice(('ABC', 'XK', 'EU7'))}{rng.randrange(1000)}", values[0]]
        if shape > 2:
            values.append(str(rng.randrange(1, 100)))
        if rng.random() < quoted:
            values[rng.randrange(shape)] = rng.choice(_QUOTED_VALUES) + str(rng.randrange(99))
        names = {1: ("idu",), 2: ("k1", "k2"), 3: ("region", "order_id", "line_no")}[shape]
        texts.append(format_table_key(list(zip(names, values, strict=True))))
    path = local_dir / f"table_keys_{keys}_{seed}.parquet"
    pq.write_table(pa.table({"key": pa.array(texts, pa.string())}), path)
    return spark.read.parquet(str(path))


def cached(frame: DataFrame, partitions: int) -> DataFrame:
    """The frame spread over `partitions`, cached and materialised (not part of any timing)."""
    frame = frame.repartition(partitions).cache()
    frame.count()
    return frame


def disagreements(frame: DataFrame, columns: dict[str, Column], subset: str) -> dict[str, int]:
    """Rows where `row` differs from `registered`, and `sql` does within `subset` (SQL text)."""
    from pyspark.sql import functions as F

    checked = frame.select(
        *(column.alias(name) for name, column in columns.items()), F.expr(subset).alias("subset")
    )
    registered = F.col("registered")
    counts = checked.agg(
        F.count_if(~F.col("row").eqNullSafe(registered)).alias("row_vs_registered"),
        F.count_if(F.col("subset") & ~F.col("sql").eqNullSafe(registered)).alias(
            "sql_vs_registered"
        ),
        F.count_if(F.col("subset")).alias("sql_subset_rows"),
    )
    return counts.first().asDict()


def measure(frame: DataFrame, columns: dict[str, Column], repeats: int) -> dict[str, list[float]]:
    """Seconds of each column's noop write, `repeats` times round-robin so drift hits all alike."""
    seconds: dict[str, list[float]] = {name: [] for name in columns}
    for _ in range(repeats):
        for name, column in columns.items():
            query = frame.select(column.alias("r")).write.format("noop").mode("overwrite")
            started = time.perf_counter()
            query.save()
            seconds[name].append(time.perf_counter() - started)
    return seconds


def workload(
    name: str, frame: DataFrame, columns: dict[str, Column], subset: str, repeats: int
) -> dict[str, Any]:
    """Check agreement, then time the implementations (and a scan-only floor) on `frame`."""
    from pyspark.sql import functions as F

    rows = frame.count()
    agreement = disagreements(frame, columns, subset)
    print(f"{name}: {rows:,} rows; rows differing from registered: {agreement}", flush=True)
    floor = {"scan": F.col(frame.columns[0])}
    seconds = measure(frame, {**columns, **floor}, repeats)
    rate = {label: rates(rows, times) for label, times in seconds.items()}
    median = {label: value["median"] for label, value in rate.items()}
    return {
        "rows": rows,
        "agreement": agreement,
        "seconds": seconds,
        "rates": rate,
        "ratios": {
            "registered/row": median["registered"] / median["row"],
            "registered/sql": median["registered"] / median["sql"],
        },
    }


LABELS = {
    "registered": "registered Arrow UDF (SQL)",
    "row": "row-at-a-time Python UDF",
    "sql": "pure Spark SQL",
    "scan": "input scan only (floor)",
}


def report(results: dict[str, dict[str, Any]], target: float) -> None:
    """Print one table of median/min/max rows/s and the ratios, per workload."""
    print(f"\n{'workload':<12}{'implementation':<28}{'median rows/s':>15}{'min':>13}{'max':>13}")
    for name, result in results.items():
        for label, rate in result["rates"].items():
            print(
                f"{name:<12}{LABELS[label]:<28}{rate['median']:>15,.0f}"
                f"{rate['min']:>13,.0f}{rate['max']:>13,.0f}"
            )
        ratios, agreement = result["ratios"], result["agreement"]
        print(
            f"{'':<12}registered/row-at-a-time {ratios['registered/row']:.2f}x, "
            f"registered/SQL {ratios['registered/sql']:.2f}x; rows differing from registered: "
            f"row-at-a-time {agreement['row_vs_registered']:,} of {result['rows']:,}, "
            f"SQL {agreement['sql_vs_registered']:,} of {agreement['sql_subset_rows']:,} it handles"
        )
    mask_ratio = results["masks"]["ratios"]["registered/row"]
    verdict = "met" if mask_ratio >= target else "NOT met"
    print(f"\ntarget: registered mask UDF >= {target:g}x row-at-a-time: {verdict}")
    print(f"table_key SQL version handles only: {SQL_KEY_SUBSET}; others get an error")


def environment(spark: SparkSession, partitions: int) -> dict[str, Any]:
    """Machine (cores, memory, load), versions and the Spark settings that shape the figures."""
    import pyspark

    meminfo = Path("/proc/meminfo")
    lines = meminfo.read_text().splitlines() if meminfo.exists() else []
    total = [int(line.split()[1]) * 1024 for line in lines if line.startswith("MemTotal:")]
    conf = spark.conf
    return {
        "cpu_count": os.cpu_count(),
        "mem_total_bytes": total[0] if total else None,
        "loadavg_at_end": os.getloadavg(),
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "pyspark": pyspark.__version__,
        "pyarrow": pa.__version__,
        "spark_master": spark.sparkContext.master,
        "input_partitions": partitions,
        "arrow_max_records_per_batch": conf.get("spark.sql.execution.arrow.maxRecordsPerBatch"),
        "python_worker_reuse": conf.get("spark.python.worker.reuse", "true"),
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line's options, checked."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.udf_throughput", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--rows", type=int, default=2_000_000, help="change masks")
    parser.add_argument("--keys", type=int, default=1_000_000, help="table keys")
    parser.add_argument("--repeats", type=int, default=5, help="runs each; first is warm-up")
    parser.add_argument("--json", type=Path, help="also write the results here as JSON")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--quoted-share", type=float, default=0.05, help="keys needing quotes")
    parser.add_argument(
        "--arrow-batch", type=int, help="spark.sql.execution.arrow.maxRecordsPerBatch"
    )
    parser.add_argument("--target", type=float, default=4.0, help="registered/row mask ratio")
    parser.add_argument(
        "--local-dir",
        type=Path,
        default=PROJECT_DIR / ".local/bench/udf",
        help="private metastore, warehouse and data cache",
    )
    args = parser.parse_args(argv)
    if args.rows < 1 or args.keys < 1 or args.repeats < 2:
        parser.error("--rows and --keys must be >= 1, --repeats >= 2 (the first is a warm-up)")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run both workloads, print the table, optionally write JSON."""
    started, load_at_start = time.perf_counter(), os.getloadavg()
    args = parse_args(argv)
    local_dir = args.local_dir.resolve()
    local_dir.mkdir(parents=True, exist_ok=True)
    spark = start_session(local_dir)
    from pyspark.sql import functions as F

    if args.arrow_batch:
        spark.conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", str(args.arrow_batch))
    partitions = 2 * spark.sparkContext.defaultParallelism
    masks = cached(mask_frame(spark, args.rows, args.seed, local_dir), partitions)
    keys = cached(key_frame(spark, args.keys, args.quoted_share, args.seed, local_dir), partitions)
    lengths = masks.groupBy(F.octet_length("mask").alias("bytes")).count().collect()
    print("mask lengths (bytes: rows):", {row["bytes"]: row["count"] for row in lengths})
    row_mask = F.udf(row_decode_change_mask, MASK_RESULT, useArrow=False)
    row_key = F.udf(row_parse_table_key, TABLE_KEY_RESULT, useArrow=False)
    mask_columns = {
        "registered": F.expr("decode_change_mask(mask, bit_count)"),
        "row": row_mask("mask", "bit_count"),
        "sql": F.expr(MASK_SQL),
    }
    key_columns = {
        "registered": F.expr("parse_table_key(key)"),
        "row": row_key("key"),
        "sql": F.expr(KEY_SQL),
    }
    results = {
        "masks": workload("masks", masks, mask_columns, "true", args.repeats),
        "table_key": workload("table_key", keys, key_columns, KEY_SUBSET_SQL, args.repeats),
    }
    report(results, args.target)
    wall = time.perf_counter() - started
    print(f"\nwall time {wall:.1f} s (session start, data preparation and checks included)")
    loads = f"{load_at_start[0]:.1f} before the session, {os.getloadavg()[0]:.1f} at the end"
    print(f"load average {loads} on {os.cpu_count()} cores (other work on the cores adds noise)")
    if args.json:
        document = {
            "command": shlex.join(getattr(sys, "orig_argv", [sys.executable, *sys.argv])),
            "parameters": {key: str(value) for key, value in vars(args).items()},
            "environment": {"loadavg_at_start": load_at_start, **environment(spark, partitions)},
            "sql_key_subset": SQL_KEY_SUBSET,
            "workloads": results,
            "wall_seconds": wall,
        }
        args.json.write_text(json.dumps(document, indent=2) + "\n")
    spark.stop()
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
