"""Check that the pipeline and the baseline job computed the same thing before comparing times.

Reads the pipeline's `dim_<table>_history` and `dim_<table>_current` straight from the
warehouse folder (no metastore, so no Derby lock) and the baseline job's Parquet folders, and
counts the rows each side has that the other lacks (multiset difference, `exceptAll`) over the
data columns and the version columns both produce. Exits 1 and names the table on a difference.

    python -m benchmarks.compare_outputs --warehouse DIR/cdc.db --baseline DIR [--tables T ...]

The tables are the Qlik baseline job's unless `--tables` names others (the OpenEdge, Qlik
Kafka and GoldenGate baselines' tables: benchmarks/openedge_pipeline.py,
benchmarks/qlik_kafka_pipeline.py, benchmarks/goldengate_pipeline.py).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from pyspark.sql import DataFrame, SparkSession

from benchmarks.baseline_job import TABLES

VERSION_COLUMNS = (
    "is_deleted",
    "valid_from",
    "valid_to",
    "valid_from_order_key",
    "valid_to_order_key",
    "is_current",
    "change_op",
)


def differences(pipeline: DataFrame, baseline: DataFrame) -> tuple[int, int]:
    """(rows only the pipeline has, rows only the baseline has) over the baseline's columns."""
    columns = baseline.columns
    left = pipeline.select(*columns)
    right = baseline.select(*columns)
    return left.exceptAll(right).count(), right.exceptAll(left).count()


def compare(
    spark: SparkSession, warehouse: str, baseline: str, tables: Sequence[str] = tuple(TABLES)
) -> list[str]:
    """A line per compared output; lines starting with 'DIFFERENT' are failures."""
    lines = []
    for table in tables:
        for kind in ("history", "current"):
            ours = spark.read.parquet(f"{warehouse}/dim_{table}_{kind}")
            theirs = spark.read.parquet(f"{baseline}/{table}_{kind}")
            only_ours, only_theirs = differences(ours, theirs)
            verdict = "same" if only_ours == only_theirs == 0 else "DIFFERENT"
            lines.append(
                f"{verdict} {table}_{kind}: {ours.count()} rows; only in pipeline "
                f"{only_ours}, only in baseline {only_theirs}"
            )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.compare_outputs")
    parser.add_argument("--warehouse", required=True, help="the pipeline schema's folder")
    parser.add_argument("--baseline", required=True, help="the baseline job's --out folder")
    parser.add_argument("--tables", nargs="+", default=list(TABLES), help="the compared tables")
    args = parser.parse_args(argv)
    spark = (
        SparkSession.builder.master("local[*]")
        .appName("cdc-compare")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    lines = compare(spark, args.warehouse, args.baseline, args.tables)
    spark.stop()
    print("\n".join(lines))
    return 1 if any(line.startswith("DIFFERENT") for line in lines) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
