"""What a user would write instead for Oracle GoldenGate trail records: a hand-written PySpark
job, the baseline (issue 25).

It reads the same landed decoded trail records as the pipeline (`<landing>/ogg_trail_records/`,
one row per trail record with Logdump's header fields and the images as JSON text) and writes,
per table, the same history and current state as `dim_<table>_history` and
`dim_<table>_current`, as Parquet folders under `--out`. A competent, direct job for what the
benchmark lands (spec E):

- a chain of chunks (`RecCount` 1..n) put back together: each long value's pieces joined in
  order; a chain is found by the last first chunk before it in its trail file, or, for a
  chain that a file rollover cut, in the files before (one row per file, so no step orders the
  whole trail in one task);
- a FieldComp before image (IOType 15, B) paired with the record after it (its A), which then
  has its old key; unified (135) and primary-key (115) updates carry theirs;
- IOTime made monotone in trail order (its running maximum: within a file, then across files);
- an insert (5) or full update (10) has every column, a FieldComp after image (15) the key and
  the changed ones: the rest carried forward from the row's previous state, through key
  updates too (benchmarks.partial_images); a delete (3) carries its key in the before image;
  a key update ends its old key (a `K` version), repeated deletes collapse.

It does none of the pipeline's other work: no validation or quarantine, no duplicates judged,
no transaction flags, no control records, no canonical change log, no point-in-time function,
and not the Big Data JSON form (the benchmark measures the trail form).

    python -m benchmarks.goldengate_baseline_job --landing DIR --out DIR [--master local[*]]
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import reduce

from pyspark.sql import Column, DataFrame, SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql import types as T

from benchmarks.baseline_job import job_main, write_outputs
from benchmarks.goldengate_staging import TABLES
from benchmarks.partial_images import carried_forward, history_versions, with_old_key_ends
from cdc_simulator.table_model import TableSpec

TRAIL = "ogg_trail_records"
SOURCE_SCHEMA = "SALES"
INSERT, DELETE, UPDATE, FIELD_COMP, PK_UPDATE, UNIFIED_PK_UPDATE = 5, 3, 10, 15, 115, 135
_IMAGE = T.MapType(T.StringType(), T.StringType())
# Logdump's IOTime: 2024/03/01 12:00:00.123.456 (milliseconds.microseconds), read as UTC
_IO_TIME = r"^(\d{4})/(\d{2})/(\d{2}) (\d{2}:\d{2}:\d{2})\.(\d{3})\.(\d{3})$"


def table_name(spec: TableSpec) -> str:
    """The name GoldenGate writes for a table: SCHEMA.TABLE, upper case."""
    return f"{SOURCE_SCHEMA}.{spec.name}".upper()


def records(spark: SparkSession, landing: str) -> DataFrame:
    """The landed trail records (a record landed twice counted once), images as maps."""
    raw = spark.read.parquet(f"{landing}/{TRAIL}").dropDuplicates(["trail_seqno", "trail_rba"])
    io_time = F.regexp_replace(F.trim("IOTime"), _IO_TIME, "$1-$2-$3 $4.$5$6")
    return raw.select(
        F.col("trail_seqno").cast("long").alias("seqno"),
        F.col("trail_rba").cast("long").alias("rba"),
        F.col("IOType").cast("int").alias("io_type"),
        F.upper(F.trim("BeforeAfter")).alias("before_after"),
        F.col("RecCount").cast("int").alias("rec_count"),
        F.upper(F.trim("table_name")).alias("table_name"),
        io_time.cast("timestamp").alias("io_time"),
        F.from_json("before_image", _IMAGE).alias("before"),
        F.from_json("after_image", _IMAGE).alias("after"),
    )


def logical_records(trail: DataFrame) -> DataFrame:
    """One row per logical record: a chain of chunks (RecCount > 1 after its first) put back
    together, each long value's pieces joined in RecCount order, at its first chunk's
    position."""
    in_file = Window.partitionBy("seqno").orderBy("rba")
    first_rba = F.when(F.col("rec_count") == 1, F.col("rba"))
    marked = trail.withColumn("chain_rba", F.last(first_rba, ignorenulls=True).over(in_file))
    continuations = marked.where("rec_count > 1")
    # a chain a file rollover cut: its first chunk is the last one of an earlier file
    orphans = continuations.where("chain_rba is null")
    last_firsts = (
        trail.where("rec_count = 1")
        .groupBy("seqno")
        .agg(F.max("rba").alias("last_first_rba"))
        .withColumnRenamed("seqno", "first_seqno")
    )
    earlier = Window.partitionBy("seqno", "rba").orderBy(F.col("first_seqno").desc())
    adopted = (
        orphans.select("seqno", "rba", "rec_count", "after")
        .join(F.broadcast(last_firsts), F.col("first_seqno") < F.col("seqno"))
        .withColumn("rank", F.row_number().over(earlier))
        .where("rank = 1")
        .select(
            F.col("first_seqno").alias("chain_seqno"),
            F.col("last_first_rba").alias("chain_rba"),
            "rec_count",
            "after",
        )
    )
    pieces = continuations.where("chain_rba is not null").select(
        F.col("seqno").alias("chain_seqno"), "chain_rba", "rec_count", "after"
    )
    firsts = marked.where("rec_count = 1").drop("chain_rba")
    chained = pieces.unionByName(adopted)
    parts = firsts.select(
        F.col("seqno").alias("chain_seqno"),
        F.col("rba").alias("chain_rba"),
        "rec_count",
        "after",
    ).join(chained.select("chain_seqno", "chain_rba").distinct(), ["chain_seqno", "chain_rba"])
    entries = parts.unionByName(chained).select(
        "chain_seqno", "chain_rba", "rec_count", F.explode("after").alias("column", "piece")
    )
    joined = entries.groupBy("chain_seqno", "chain_rba", "column").agg(
        F.when(
            F.count("piece") > 0,
            F.array_join(
                F.transform(
                    F.array_sort(F.collect_list(F.struct("rec_count", "piece"))),
                    lambda entry: entry["piece"],
                ),
                "",
            ),
        ).alias("value")
    )
    whole = joined.groupBy("chain_seqno", "chain_rba").agg(
        F.map_from_entries(F.collect_list(F.struct("column", "value"))).alias("whole_after")
    )
    return (
        firsts.join(
            whole,
            (F.col("seqno") == F.col("chain_seqno")) & (F.col("rba") == F.col("chain_rba")),
            "left",
        )
        .withColumn("after", F.coalesce("whole_after", "after"))
        .drop("chain_rba", "chain_seqno", "whole_after")
    )


def monotone_times(logical: DataFrame) -> DataFrame:
    """`effective_at`: IOTime's running maximum in trail order, within each file and then
    across files (the files' maxima, one row per file)."""
    in_file = Window.partitionBy("seqno").orderBy("rba").rowsBetween(Window.unboundedPreceding, 0)
    earlier_files = Window.orderBy("seqno").rowsBetween(Window.unboundedPreceding, -1)
    file_maxima = (
        logical.groupBy("seqno")
        .agg(F.max("io_time").alias("file_max"))
        .withColumn("before_file", F.max("file_max").over(earlier_files))
        .select("seqno", "before_file")
    )
    return (
        logical.withColumn("in_file", F.max("io_time").over(in_file))
        .join(F.broadcast(file_maxima), "seqno")
        .withColumn("effective_at", F.greatest("in_file", "before_file"))
        .drop("in_file", "before_file")
    )


def typed(text: Column, spark_type: str) -> Column:
    """A value's JSON text as the column's type (binary: Base64 text)."""
    if spark_type == "binary":
        return F.unbase64(text)
    return text.cast(spark_type)


def table_events(timed: DataFrame, spec: TableSpec) -> DataFrame:
    """One row per change of a table in benchmarks.partial_images' terms: a FieldComp before
    image gives the record after it its old key; a key update adds its old key's `K` row."""
    of_table = timed.where(F.col("table_name") == table_name(spec))
    in_file = Window.partitionBy("seqno").orderBy("rba")
    previous = of_table.withColumn("previous_io_type", F.lag("io_type").over(in_file)).withColumn(
        "previous_before_after", F.lag("before_after").over(in_file)
    )
    previous = previous.withColumn("previous_before", F.lag("before").over(in_file))
    # a file's first record: its previous one is the previous file's last
    last_of_file = Window.partitionBy("seqno").orderBy(F.col("rba").desc())
    lasts = (
        of_table.withColumn("rank", F.row_number().over(last_of_file))
        .where("rank = 1")
        .select(
            (F.col("seqno") + 1).alias("seqno"),
            F.col("io_type").alias("last_io_type"),
            F.col("before_after").alias("last_before_after"),
            F.col("before").alias("last_before"),
        )
    )
    first_of_file = F.col("previous_io_type").isNull()
    paired = previous.join(F.broadcast(lasts), "seqno", "left").select(
        *[c for c in of_table.columns],
        F.when(first_of_file, F.col("last_io_type"))
        .otherwise(F.col("previous_io_type"))
        .alias("prior_io_type"),
        F.when(first_of_file, F.col("last_before_after"))
        .otherwise(F.col("previous_before_after"))
        .alias("prior_before_after"),
        F.when(first_of_file, F.col("last_before"))
        .otherwise(F.col("previous_before"))
        .alias("prior_before"),
    )
    is_before_record = (F.col("io_type") == FIELD_COMP) & (F.col("before_after") == "B")
    after_its_before = (
        (F.col("io_type") == FIELD_COMP)
        & (F.col("before_after") == "A")
        & (F.col("prior_io_type") == FIELD_COMP)
        & (F.col("prior_before_after") == "B")
    )
    changes = paired.where(~is_before_record).withColumn(
        "before", F.when(after_its_before, F.col("prior_before")).otherwise(F.col("before"))
    )
    is_delete = F.col("io_type") == DELETE
    image = F.when(is_delete, F.col("before")).otherwise(F.col("after"))
    keys = list(spec.key_columns)

    def value(source: Column, name: str) -> Column:
        return typed(source[name.upper()], spec.column(name).spark_type)

    new_key = [value(image, k) for k in keys]
    old_key = [value(F.col("before"), k) for k in keys]
    moved = (
        ~is_delete
        & F.col("before").isNotNull()
        & ~reduce(
            lambda a, b: a & b, [o.eqNullSafe(n) for o, n in zip(old_key, new_key, strict=True)]
        )
    )
    values = [
        F.when(
            F.map_contains_key(image, column.name.upper()),
            F.struct(value(image, column.name).alias("v")),
        ).alias(f"v_{column.name}")
        for column in spec.columns
    ]
    events = changes.select(
        *[n.alias(k) for k, n in zip(keys, new_key, strict=True)],
        *[o.alias(f"old_{k}") for k, o in zip(keys, old_key, strict=True)],
        F.concat(
            F.lpad(F.col("seqno").cast("string"), 10, "0"),
            F.lpad(F.col("rba").cast("string"), 20, "0"),
        ).alias("order_key"),
        "effective_at",
        (~is_delete).alias("row_exists"),
        F.when(is_delete, "D")
        .when(F.col("io_type") == INSERT, "I")
        .otherwise("U")
        .alias("change_op"),
        moved.alias("is_key_move"),
        *values,
    )
    return with_old_key_ends(events, spec)


def run(spark: SparkSession, landing: str, out: str) -> None:
    """Write `<out>/<table>_history` and `<out>/<table>_current` for every table."""
    timed = monotone_times(logical_records(records(spark, landing))).localCheckpoint()
    for spec in TABLES:
        history = history_versions(carried_forward(table_events(timed, spec), spec), spec)
        write_outputs(spark, history, out, spec.name)


def main(argv: Sequence[str] | None = None) -> int:
    return job_main(
        argv,
        prog="python -m benchmarks.goldengate_baseline_job",
        description=__doc__,
        landing_help="folder of the landed ogg_trail_records/",
        app_name="cdc-baseline-goldengate",
        job=run,
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
