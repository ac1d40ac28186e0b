"""What a user would write instead: a hand-written PySpark job, the benchmark's baseline.

It reads the same landed Qlik Replicate files as the pipeline (`<landing>/<table>__ct/` change
tables and `<landing>/<table>/` full loads) and writes, per table, the same SCD2 history and
current state as `dim_<table>_history` and `dim_<table>_current`, as Parquet folders under
`--out`. It is a competent, direct job: deduplicate deliveries, treat the full load as inserts
before every change, end the old key of a key update (its before-image carries it), collapse
repeated deletes, bound versions with `lead`. It does none of the pipeline's other work: no
validation or quarantine, no canonical change log, no decoded masks, no point-in-time function.

    python -m benchmarks.baseline_job --landing DIR --out DIR [--master local[*]]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence

from pyspark.sql import DataFrame, SparkSession, Window
from pyspark.sql import functions as F

from python_udfs.java_runtime import set_java_home

# The tables and key columns (in key order) of the project's var cdc_tables.
TABLES: dict[str, tuple[str, ...]] = {
    "employees": ("employee_id",),
    "order_lines": ("order_id", "line_no"),
}
HEADER_PREFIX = "header__"
SNAPSHOT_ORDER_KEY = "0" * 35


def change_seq_time(seq: F.Column) -> F.Column:
    """The commit time in a change_seq: YYYYMMDDHHmmSShh, hh in hundredths (spec A.3)."""
    seconds = F.concat(F.substring(seq, 1, 14), F.lit("."), F.substring(seq, 15, 2))
    return F.to_timestamp(seconds, "yyyyMMddHHmmss.SS")


def table_history(spark: SparkSession, landing: str, table: str, keys: Sequence[str]) -> DataFrame:
    """One table's SCD2 history: a row per version of a key, deleted versions included."""
    changes = spark.read.parquet(f"{landing}/{table}__ct").dropDuplicates(
        [f"{HEADER_PREFIX}change_seq", f"{HEADER_PREFIX}change_oper"]
    )
    baseline = spark.read.parquet(f"{landing}/{table}")
    data = [name for name in changes.columns if not name.startswith(HEADER_PREFIX)]
    seq = F.col(f"{HEADER_PREFIX}change_seq")
    oper = F.col(f"{HEADER_PREFIX}change_oper")

    def events(frame: DataFrame, order_key: F.Column, exists: F.Column, op: F.Column) -> DataFrame:
        return frame.select(
            *data,
            order_key.alias("order_key"),
            exists.alias("row_exists"),
            op.alias("change_op"),
        )

    rows = events(changes.where(oper.isin("I", "U", "D")), seq, oper != "D", oper)
    loaded = events(baseline, F.lit(SNAPSHOT_ORDER_KEY), F.lit(True), F.lit("I"))
    # A key update: the before-image (B) has the old key, its update (U) the new one.
    before = changes.where(oper == "B").alias("b")
    after = changes.where(oper == "U").select(
        seq.alias("u_seq"), *[F.col(k).alias(f"u_{k}") for k in keys]
    )
    moved = before.join(after, F.col(f"b.{HEADER_PREFIX}change_seq") == F.col("u_seq")).where(
        ~F.expr(" and ".join(f"b.{k} <=> u_{k}" for k in keys))
    )
    old_keys = events(moved.select("b.*"), seq, F.lit(False), F.lit("K"))

    key_order = Window.partitionBy(*keys).orderBy("order_key", "row_exists")
    versions = (
        rows.unionByName(loaded)
        .unionByName(old_keys)
        .withColumn("previous_exists", F.lag("row_exists").over(key_order))
        .where(F.col("row_exists") | F.coalesce(F.col("previous_exists"), F.lit(True)))
        .withColumn("valid_to_order_key", F.lead("order_key").over(key_order))
    )
    return versions.select(
        *data,
        (~F.col("row_exists")).alias("is_deleted"),
        F.when(F.col("order_key") != SNAPSHOT_ORDER_KEY, change_seq_time(F.col("order_key"))).alias(
            "valid_from"
        ),
        change_seq_time(F.col("valid_to_order_key")).alias("valid_to"),
        F.col("order_key").alias("valid_from_order_key"),
        "valid_to_order_key",
        F.col("valid_to_order_key").isNull().alias("is_current"),
        "change_op",
    )


def write_outputs(spark: SparkSession, history: DataFrame, out: str, table: str) -> None:
    """`<out>/<table>_history`, then `<out>/<table>_current` (its current, live versions)
    read back from it: the history is computed once."""
    history_path = f"{out}/{table}_history"
    history.write.mode("overwrite").parquet(history_path)
    written = spark.read.parquet(history_path)
    current = written.where(F.col("is_current") & ~F.col("is_deleted"))
    current.write.mode("overwrite").parquet(f"{out}/{table}_current")


def run(spark: SparkSession, landing: str, out: str) -> None:
    """Write `<out>/<table>_history` and `<out>/<table>_current` for every table."""
    for table, keys in TABLES.items():
        write_outputs(spark, table_history(spark, landing, table, keys), out, table)


def job_main(
    argv: Sequence[str] | None,
    *,
    prog: str,
    description: str | None,
    landing_help: str,
    app_name: str,
    job: Callable[[SparkSession, str, str], None],
) -> int:
    """A baseline job's command line: its own local Spark session (UTC), `job(spark,
    landing, out)` in it, the wall seconds printed. Shared by the format baselines."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--landing", required=True, help=landing_help)
    parser.add_argument("--out", required=True, help="folder for the Parquet outputs")
    parser.add_argument("--master", default="local[*]")
    parser.add_argument("--driver-memory", default="4g")
    parser.add_argument("--shuffle-partitions", default="4")
    args = parser.parse_args(argv)
    # the Java the pipeline runs on (`cdc-dbt` does the same): the user's, else the bundled
    set_java_home()
    started = time.perf_counter()
    spark = (
        SparkSession.builder.master(args.master)
        .appName(app_name)
        .config("spark.driver.memory", args.driver_memory)
        .config("spark.sql.shuffle.partitions", args.shuffle_partitions)
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    job(spark, args.landing, args.out)
    spark.stop()
    print(f"baseline: {args.landing} -> {args.out} in {time.perf_counter() - started:.1f} s")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    return job_main(
        argv,
        prog="python -m benchmarks.baseline_job",
        description=__doc__,
        landing_help="folder of <table>__ct/ and <table>/",
        app_name="cdc-baseline",
        job=run,
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
