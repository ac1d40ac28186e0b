"""What the baseline jobs of the formats whose images can lack columns share (Qlik Kafka's
uncaptured columns, GoldenGate's FieldComp records): carrying each column forward from a row's
previous state, through key updates, and bounding the resulting states as versions.

Both take a frame of events, one per change of one table:
- the key columns (the row's key after the change) and `old_<key>` (a key update's old key);
- `order_key` (text in change order), `effective_at` (the change's time, null for a full
  load), `row_exists` (false for a delete and for a key update's old key), `change_op` (I, U,
  D, or K for the old key of a key update), `is_key_move` (the new key's side of a key
  update);
- per data column `v_<column>`: a struct `v` of the typed value when the image has the
  column, null when it does not.
"""

from __future__ import annotations

from functools import reduce

from pyspark.sql import Column, DataFrame, Window
from pyspark.sql import functions as F

from cdc_simulator.table_model import TableSpec

# passes of carrying a key update's missing columns over from its old key; each pass
# resolves one more link of a chain of such updates (a chain longer than this is an error)
MAX_CARRY_PASSES = 20


def carried_forward(events: DataFrame, spec: TableSpec) -> DataFrame:
    """Every image's missing columns filled: from the key's previous state since the row
    began (an insert, the baseline, or a key update moving it in), and for a key update from
    its old key's state just before it, pass after pass until nothing changes."""
    keys = list(spec.key_columns)
    value_columns = [f"v_{c.name}" for c in spec.columns]
    starts = F.col("is_key_move") | F.col("change_op").isin("I")
    by_key = Window.partitionBy(*keys).orderBy("order_key", "row_exists")
    numbered = events.withColumn(
        "incarnation", F.sum(F.when(starts, 1).otherwise(0)).over(by_key)
    ).withColumn("event_id", F.monotonically_increasing_id())
    numbered = numbered.localCheckpoint()
    since_start = by_key.partitionBy(*keys, "incarnation").rowsBetween(Window.unboundedPreceding, 0)

    def fill(frame: DataFrame) -> DataFrame:
        return frame.select(
            *[c for c in frame.columns if c not in value_columns],
            *[F.last(c, ignorenulls=True).over(since_start).alias(c) for c in value_columns],
        )

    def unresolved(frame: DataFrame) -> Column:
        return F.col("is_key_move") & reduce(
            lambda a, b: a | b, [frame[c].isNull() for c in value_columns]
        )

    state = fill(numbered).localCheckpoint()
    pending = state.where(unresolved(state)).count()
    for _ in range(MAX_CARRY_PASSES):
        if pending == 0:
            return state
        # each unresolved key update: its old key's latest state before it
        moves = state.where(unresolved(state)).select(
            "event_id", "order_key", *[F.col(f"old_{k}").alias(f"m_{k}") for k in keys]
        )
        sources = state.where("row_exists").select(
            *[F.col(k).alias(f"m_{k}") for k in keys],
            F.col("order_key").alias("source_order_key"),
            *[F.col(c).alias(f"s_{c}") for c in value_columns],
        )
        latest = Window.partitionBy("event_id").orderBy(F.col("source_order_key").desc())
        found = (
            moves.join(sources, [f"m_{k}" for k in keys])
            .where(F.col("source_order_key") < F.col("order_key"))
            .withColumn("rank", F.row_number().over(latest))
            .where("rank = 1")
            .select("event_id", *[f"s_{c}" for c in value_columns])
        )
        patched = state.join(found, "event_id", "left").select(
            *[c for c in state.columns if c not in value_columns],
            *[F.coalesce(F.col(c), F.col(f"s_{c}")).alias(c) for c in value_columns],
        )
        state = fill(patched).localCheckpoint()
        still = state.where(unresolved(state)).count()
        if still == pending:
            break
        pending = still
    if pending:
        raise RuntimeError(
            f"{spec.name}: {pending} key updates lack columns their old key never had"
        )
    return state


def with_old_key_ends(events: DataFrame, spec: TableSpec) -> DataFrame:
    """The events and, for each key update, its old key's end: a `K` row at the update's
    position with no values (carried_forward gives it the old key's last state)."""
    keys = list(spec.key_columns)
    old_keys = events.where("is_key_move").select(
        *[F.col(f"old_{k}").alias(k) for k in keys],
        *[F.lit(None).cast(events.schema[k].dataType).alias(f"old_{k}") for k in keys],
        "order_key",
        "effective_at",
        F.lit(False).alias("row_exists"),
        F.lit("K").alias("change_op"),
        F.lit(False).alias("is_key_move"),
        *[
            F.lit(None).cast(events.schema[f"v_{c.name}"].dataType).alias(f"v_{c.name}")
            for c in spec.columns
        ],
    )
    return events.unionByName(old_keys)


def history_versions(events: DataFrame, spec: TableSpec) -> DataFrame:
    """States per key in order: a deleted version only where the key existed just before
    (repeated deletes collapse), each version bounded by the key's next one."""
    keys = list(spec.key_columns)
    key_order = Window.partitionBy(*keys).orderBy("order_key", "row_exists")
    kept = (
        events.withColumn("previous_exists", F.lag("row_exists").over(key_order))
        .where(F.col("row_exists") | F.coalesce(F.col("previous_exists"), F.lit(True)))
        .withColumn("valid_to_order_key", F.lead("order_key").over(key_order))
        .withColumn("valid_to", F.lead("effective_at").over(key_order))
    )
    data = [
        F.col(column.name) if column.name in keys else F.col(f"v_{column.name}")["v"]
        for column in spec.columns
    ]
    return kept.select(
        *[
            value.cast(c.spark_type).alias(c.name)
            for value, c in zip(data, spec.columns, strict=True)
        ],
        (~F.col("row_exists")).alias("is_deleted"),
        F.col("effective_at").alias("valid_from"),
        "valid_to",
        F.col("order_key").alias("valid_from_order_key"),
        "valid_to_order_key",
        F.col("valid_to_order_key").isNull().alias("is_current"),
        "change_op",
    )
