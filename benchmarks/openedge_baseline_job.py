"""What a user would write instead for OpenEdge CDC: a hand-written PySpark job, the baseline.

It reads the same landed OpenEdge files as the pipeline (`<landing>/cdc_change_tracking/` and
per level 2/3 table `<landing>/<change table>/`) and writes, per table, the same history and
current state as `dim_<table>_history` and `dim_<table>_current`, as Parquet folders under
`--out`. A competent, direct job for what the benchmark lands: split records put back
together (spec D.7), a tracking row joined to its change record by `_Change-Sequence`, the
key an update left found in its level-3 before-update record or (level 2) in the previous
change of its `_Recid`, a level-0 table as the `_Recid`s that exist, `_Time-Stamp` made
monotone in sequence order, versions bounded with `lead`. It does none of the pipeline's
other work: no validation, holding or quarantine, no duplicates removed, no partition or
field-delete operations, no canonical change log, no point-in-time function.

    python -m benchmarks.openedge_baseline_job --landing DIR --out DIR [--master local[*]]
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass

from pyspark.sql import Column, DataFrame, SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql.types import StringType

from benchmarks.baseline_job import job_main, write_outputs

TRACKING = "cdc_change_tracking"
CREATE, DELETE, BEFORE_UPDATE, AFTER_UPDATE = 1, 2, 3, 4


@dataclass(frozen=True)
class Table:
    """One captured table as the project's `cdc_tables` configures it."""

    name: str
    change_table: str
    level: int
    table_number: int
    key_columns: tuple[str, ...]
    columns: tuple[str, ...]
    """Data columns in the policy's field order (the order split records count in)."""


# The OpenEdge tables of the project's var cdc_tables (dbt_project.yml).
TABLES = (
    Table(
        "oe_customer",
        "cdc_customer",
        3,
        2,
        ("custnum",),
        ("custnum", "name", "balance", "comments"),
    ),
    Table("item", "cdc_item", 2, 3, ("itemnum",), ("itemnum", "itemname", "tags", "descr")),
    Table("visit", "", 0, 4, ("recid",), ("recid",)),
)


def merged_records(records: DataFrame, table: Table) -> DataFrame:
    """One record per (change sequence, operation): a split record's first part
    (`_Continuation-Position` 0) and continuation (position p) put back together: fields 1
    to p from the first, field p + 1 from the continuation, or the first's text followed by
    the continuation's (`_Fragment` 1), or their elements joined by `;` (`_ArrayIndex` > 0),
    the fields after it from the continuation."""
    position = F.col("_Continuation-Position")
    first = records.where(position == 0).alias("f")
    rest = records.where(position > 0).alias("c")
    joined = first.join(
        rest,
        (F.col("f._Change-Sequence") == F.col("c._Change-Sequence"))
        & (F.col("f._Operation") == F.col("c._Operation")),
        "left",
    )
    split_at = F.col("c._Continuation-Position")
    text_columns = {f.name for f in records.schema.fields if isinstance(f.dataType, StringType)}
    values = []
    for index, name in enumerate(table.columns, start=1):
        whole, tail = F.col(f"f.`{name}`"), F.col(f"c.`{name}`")
        at_split = tail
        if name in text_columns:
            # an extent split at an element, or a text field cut in two
            at_split = (
                F.when(F.col("f._ArrayIndex") > 0, F.concat_ws(";", whole, tail))
                .when(F.col("f._Fragment") == 1, F.concat(whole, tail))
                .otherwise(tail)
            )
        values.append(
            F.when(split_at.isNull() | (split_at >= index), whole)
            .when(split_at + 1 == index, at_split)
            .otherwise(tail)
            .alias(name)
        )
    return joined.select(
        F.col("f._Change-Sequence").alias("sequence"),
        F.col("f._Operation").alias("operation"),
        *values,
    )


def table_history(spark: SparkSession, landing: str, table: Table) -> DataFrame:
    """One table's history: a row per version of a key, deleted versions included."""
    tracking = (
        spark.read.parquet(f"{landing}/{TRACKING}")
        .where(
            (F.col("_Source-Table-Number") == table.table_number)
            & F.col("_Operation").isin(CREATE, DELETE, AFTER_UPDATE)
        )
        .select(
            F.col("_Change-Sequence").alias("sequence"),
            F.col("_Operation").alias("operation"),
            F.col("_Recid").alias("recid"),
            F.col("_Time-Stamp").alias("op_ts"),
        )
    )
    # _Time-Stamp made monotone within the table, in sequence order (spec D.8)
    in_order = Window.orderBy("sequence").rowsBetween(Window.unboundedPreceding, 0)
    timed = tracking.withColumn("effective_at", F.max("op_ts").over(in_order))
    keys = list(table.key_columns)
    change_op = (
        F.when(F.col("operation") == CREATE, "I")
        .when(F.col("operation") == DELETE, "D")
        .otherwise("U")
        .alias("change_op")
    )
    if table.level < 2:
        # no values: the row is its _Recid (an update keeps it, an update of the key is a
        # delete and a create)
        states = timed.select(
            "recid",
            "sequence",
            "effective_at",
            (F.col("operation") != DELETE).alias("row_exists"),
            change_op,
        )
        return versions(states, keys, list(table.columns))
    records = merged_records(spark.read.parquet(f"{landing}/{table.change_table}"), table)
    rows = timed.join(records, ["sequence", "operation"])
    data = list(table.columns)
    # the key an update left: its before-update record's (level 3), else the key of the
    # previous change of its _Recid (level 2: no before image)
    if table.level == 3:
        before = records.where(F.col("operation") == BEFORE_UPDATE).select(
            "sequence", *[F.col(k).alias(f"old_{k}") for k in keys]
        )
        rows = rows.join(before, "sequence", "left")
        moved_values: DataFrame | None = records.where(F.col("operation") == BEFORE_UPDATE).drop(
            "operation"
        )
    else:
        # the _Recid's previous values: the old key's last state, which its end shows
        by_recid = Window.partitionBy("recid").orderBy("sequence")
        for column in data:
            rows = rows.withColumn(f"old_{column}", F.lag(column).over(by_recid))
        moved_values = None
    key_moved = (
        (F.col("operation") == AFTER_UPDATE)
        & ~_all([F.col(f"old_{k}").eqNullSafe(F.col(k)) for k in keys])
        & _all([F.col(f"old_{k}").isNotNull() for k in keys])
    )
    states = rows.select(
        *data,
        "sequence",
        "effective_at",
        (F.col("operation") != DELETE).alias("row_exists"),
        change_op,
    )
    ended = rows.where(key_moved)
    if moved_values is not None:
        # the old key's last version ends with the before-update record's values
        ended_rows = ended.select("sequence", "effective_at").join(moved_values, "sequence")
    else:
        ended_rows = ended.select(
            "sequence",
            "effective_at",
            *[F.col(f"old_{column}").alias(column) for column in data],
        )
    old_key_states = ended_rows.select(
        *data,
        "sequence",
        "effective_at",
        F.lit(False).alias("row_exists"),
        F.lit("K").alias("change_op"),
    )
    return versions(states.unionByName(old_key_states), keys, data)


def _all(conditions: Sequence[Column]) -> Column:
    result = conditions[0]
    for condition in conditions[1:]:
        result = result & condition
    return result


def versions(states: DataFrame, keys: list[str], data: list[str]) -> DataFrame:
    """States per key in sequence order: a deleted version only where the key existed just
    before (repeated deletes collapse), each version bounded by the key's next one."""
    key_order = Window.partitionBy(*keys).orderBy("sequence", "row_exists")
    order_key = F.lpad(F.col("sequence").cast("string"), 20, "0")
    kept = (
        states.withColumn("previous_exists", F.lag("row_exists").over(key_order))
        .where(F.col("row_exists") | F.coalesce(F.col("previous_exists"), F.lit(True)))
        .withColumn("order_key", order_key)
        .withColumn("valid_to_order_key", F.lead("order_key").over(key_order))
        .withColumn("valid_to", F.lead("effective_at").over(key_order))
    )
    return kept.select(
        *data,
        (~F.col("row_exists")).alias("is_deleted"),
        F.col("effective_at").alias("valid_from"),
        "valid_to",
        F.col("order_key").alias("valid_from_order_key"),
        "valid_to_order_key",
        F.col("valid_to_order_key").isNull().alias("is_current"),
        "change_op",
    )


def run(spark: SparkSession, landing: str, out: str) -> None:
    """Write `<out>/<table>_history` and `<out>/<table>_current` for every table."""
    for table in TABLES:
        write_outputs(spark, table_history(spark, landing, table), out, table.name)


def main(argv: Sequence[str] | None = None) -> int:
    return job_main(
        argv,
        prog="python -m benchmarks.openedge_baseline_job",
        description=__doc__,
        landing_help="folder of the landed OpenEdge tables",
        app_name="cdc-baseline-openedge",
        job=run,
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
