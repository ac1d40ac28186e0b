"""What a user would write instead for Qlik Replicate's Kafka messages: a hand-written PySpark
job, the baseline (issue 25).

It reads the same landed topic files as the pipeline (`<landing>/<topic>/`: the columns a Kafka
sink lands, the message's JSON in `value`) and writes, per table, the same history and current
state as `dim_<table>_history` and `dim_<table>_current`, as Parquet folders under `--out`. A
competent, direct job for what the benchmark lands (spec B):

- a message's payload is its `message` inside the `atMSG` envelope, else the value itself;
  exact copies (one value landed twice) collapse;
- the metadata topic's table versions give each data message its columns by ordinal: the
  version its `externalSchemaId` names, else the newest one whose lineage timestamp is at or
  before the message's changeSequence time (the REFRESH baseline: its Kafka timestamp);
- a column is in an image when its `columnMask` bit is set (every column without a
  columnMask); one left out is carried forward from the row's previous state, through key
  updates too (the old key's state at the move; repeated until no image lacks a value);
- the REFRESH baseline is inserts before every change (order key 35 zeros), a DELETE's key is
  in `data` or `beforeData`, a key update ends its old key (a `K` version), repeated deletes
  collapse, versions are bounded with `lead`.

It does none of the pipeline's other work: no validation or quarantine, no change-mask
decoding beyond what carrying columns forward needs, no transaction flags, no canonical change
log, no point-in-time function.

    python -m benchmarks.qlik_kafka_baseline_job --landing DIR --out DIR [--master local[*]]
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import reduce

from pyspark.sql import Column, DataFrame, SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql import types as T

from benchmarks.baseline_job import SNAPSHOT_ORDER_KEY, change_seq_time, job_main, write_outputs
from benchmarks.partial_images import carried_forward, history_versions, with_old_key_ends
from cdc_simulator.table_model import EMPLOYEES, ORDER_LINES, TableSpec

METADATA_TOPIC = "kafka_metadata"
TOPIC_PREFIX = "kafka_sales_"
ENVELOPE_MAGIC = "atMSG"
# the masks' byte order (var qlik_kafka_hex_mask_byte_order; the simulator's default)
BYTE_ORDER = "little"


@dataclass(frozen=True)
class Table:
    """One captured table as the benchmark configures it (benchmarks.qlik_kafka_pipeline)."""

    spec: TableSpec
    topic: str

    @property
    def name(self) -> str:
        return self.spec.name


# The benchmark's two tables: the simulator's employees and order_lines under the names of
# the project's Kafka tables (benchmarks.qlik_kafka_staging.tables).
TABLES = (
    Table(replace(EMPLOYEES, name="customer"), TOPIC_PREFIX + "customer"),
    Table(replace(ORDER_LINES, name="order_item"), TOPIC_PREFIX + "order_item"),
)

_ENVELOPE = T.StructType(
    [T.StructField("magic", T.StringType()), T.StructField("message", T.StringType())]
)
_HEADERS = T.StructType(
    [
        T.StructField(name, T.StringType())
        for name in ("operation", "changeSequence", "columnMask", "externalSchemaId")
    ]
)
_DATA = T.StructType(
    [
        T.StructField("data", T.MapType(T.StringType(), T.StringType())),
        T.StructField("beforeData", T.MapType(T.StringType(), T.StringType())),
        T.StructField("headers", _HEADERS),
    ]
)
_METADATA = T.StructType(
    [
        T.StructField("schemaId", T.StringType()),
        T.StructField(
            "lineage",
            T.StructType(
                [
                    T.StructField("table", T.StringType()),
                    T.StructField("tableVersion", T.IntegerType()),
                    T.StructField("timestamp", T.StringType()),
                ]
            ),
        ),
        T.StructField(
            "tableStructure",
            T.StructType(
                [
                    T.StructField(
                        "tableColumns",
                        T.MapType(
                            T.StringType(),
                            T.StructType([T.StructField("ordinal", T.IntegerType())]),
                        ),
                    )
                ]
            ),
        ),
    ]
)


def payloads(spark: SparkSession, landing: str, topic: str) -> DataFrame:
    """A topic's landed records, exact copies collapsed, with `payload`: the message's JSON
    (unwrapped from the envelope)."""
    records = spark.read.parquet(f"{landing}/{topic}").dropDuplicates(["value"])
    envelope = F.from_json("value", _ENVELOPE)
    return records.select(
        "timestamp",
        F.when(envelope["magic"] == ENVELOPE_MAGIC, envelope["message"])
        .otherwise(F.col("value"))
        .alias("payload"),
    )


def table_versions(spark: SparkSession, landing: str) -> DataFrame:
    """(table, schema_id, table_version, lineage_at, ordinals: column name -> mask bit)."""
    metadata = F.from_json("payload", _METADATA)
    columns = metadata["tableStructure"]["tableColumns"]
    return payloads(spark, landing, METADATA_TOPIC).select(
        F.lower(metadata["lineage"]["table"]).alias("table"),
        metadata["schemaId"].alias("schema_id"),
        metadata["lineage"]["tableVersion"].alias("table_version"),
        F.to_timestamp(metadata["lineage"]["timestamp"]).alias("lineage_at"),
        F.transform_values(
            F.transform_keys(columns, lambda name, _: F.lower(name)),
            lambda _, column: column["ordinal"] - 1,
        ).alias("bits"),
    )


def mask_bit(mask: Column, bit: Column, byte_order: str) -> Column:
    """Whether a hex mask (spec B.5) sets bit `bit` (ordinal - 1); bytes a trimmed mask
    leaves out are zero. "little": byte 0 first; "big": one hexadecimal number."""
    byte = F.floor(bit / 8)
    start = 2 * byte + 1 if byte_order == "little" else F.length(mask) - 2 * byte - 1
    pair = F.when((start >= 1) & (start < F.length(mask)), mask.substr(start, F.lit(2)))
    value = F.conv(pair, 16, 10).cast("int")
    return F.coalesce(F.floor(value / F.pow(F.lit(2), bit % 8)) % 2 == 1, F.lit(False))


def typed(text: Column, spark_type: str) -> Column:
    """A value's JSON text as the column's type (binary: hex text)."""
    if spark_type == "binary":
        return F.unhex(text)
    return text.cast(spark_type)


def table_events(
    spark: SparkSession, landing: str, table: Table, versions: DataFrame, byte_order: str
) -> DataFrame:
    """One row per landed change of a table (the REFRESH baseline included), in the
    terms of benchmarks.partial_images (a key update adds its old key's `K` row)."""
    spec = table.spec
    message = F.from_json("payload", _DATA)
    headers = message["headers"]
    operation = headers["operation"]
    rows = payloads(spark, landing, table.topic).select(
        F.monotonically_increasing_id().alias("message_id"),
        F.coalesce(headers["operation"], F.lit("")).alias("operation"),
        F.when(operation == "REFRESH", F.lit(SNAPSHOT_ORDER_KEY))
        .otherwise(headers["changeSequence"])
        .alias("order_key"),
        F.when(operation == "REFRESH", F.col("timestamp"))
        .otherwise(change_seq_time(headers["changeSequence"]))
        .alias("message_at"),
        headers["columnMask"].alias("column_mask"),
        headers["externalSchemaId"].alias("external_schema_id"),
        F.when(operation == "DELETE", F.coalesce(message["data"], message["beforeData"]))
        .otherwise(message["data"])
        .alias("data"),
        message["beforeData"].alias("before_data"),
    )
    # the version in force for each message
    candidates = versions.where(F.col("table") == table.name)
    joined = rows.join(
        F.broadcast(candidates),
        F.when(
            F.col("external_schema_id").isNotNull(),
            F.col("external_schema_id") == F.col("schema_id"),
        ).otherwise(F.col("message_at") >= F.col("lineage_at")),
        "left",
    )
    newest = Window.partitionBy("message_id").orderBy(F.col("table_version").desc())
    decoded = (
        joined.withColumn("version_rank", F.row_number().over(newest))
        .where("version_rank = 1")
        .drop("version_rank")
    )
    keys = list(spec.key_columns)
    values = []
    for column in spec.columns:
        source = column.name.upper()
        bit = F.col("bits")[column.name]
        present = F.col("data")[source].isNotNull() | (
            F.map_contains_key("data", source)
            & (F.col("column_mask").isNull() | mask_bit(F.col("column_mask"), bit, byte_order))
        )
        value = typed(F.col("data")[source], column.spark_type)
        values.append(
            F.when(present, F.struct(value.alias("v"))).alias(f"v_{column.name}"),
        )
    old_key = [typed(F.col("before_data")[k.upper()], spec.column(k).spark_type) for k in keys]
    new_key = [typed(F.col("data")[k.upper()], spec.column(k).spark_type) for k in keys]
    is_update = F.col("operation") == "UPDATE"
    moved = (
        is_update
        & F.col("before_data").isNotNull()
        & ~reduce(
            lambda a, b: a & b, [o.eqNullSafe(n) for o, n in zip(old_key, new_key, strict=True)]
        )
    )
    events = decoded.select(
        *[n.alias(k) for k, n in zip(keys, new_key, strict=True)],
        *[o.alias(f"old_{k}") for k, o in zip(keys, old_key, strict=True)],
        "order_key",
        F.when(F.col("order_key") != SNAPSHOT_ORDER_KEY, change_seq_time(F.col("order_key"))).alias(
            "effective_at"
        ),
        (F.col("operation") != "DELETE").alias("row_exists"),
        F.when(F.col("operation") == "DELETE", "D")
        .when(is_update, "U")
        .otherwise("I")
        .alias("change_op"),
        moved.alias("is_key_move"),
        *values,
    )
    return with_old_key_ends(events, spec)


def table_history(
    spark: SparkSession, landing: str, table: Table, versions: DataFrame, byte_order: str
) -> DataFrame:
    """One table's history: a row per version of a key, deleted versions included."""
    events = table_events(spark, landing, table, versions, byte_order)
    return history_versions(carried_forward(events, table.spec), table.spec)


def run(spark: SparkSession, landing: str, out: str, byte_order: str = BYTE_ORDER) -> None:
    """Write `<out>/<table>_history` and `<out>/<table>_current` for every table."""
    versions = table_versions(spark, landing).cache()
    for table in TABLES:
        history = table_history(spark, landing, table, versions, byte_order)
        write_outputs(spark, history, out, table.name)


def main(argv: Sequence[str] | None = None) -> int:
    return job_main(
        argv,
        prog="python -m benchmarks.qlik_kafka_baseline_job",
        description=__doc__,
        landing_help="folder of the landed topic folders",
        app_name="cdc-baseline-qlik-kafka",
        job=run,
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
