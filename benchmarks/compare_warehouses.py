"""Check that two builds of the project wrote the same tables, row for row.

Reads each named model's folder straight from both warehouses (no metastore, so no Derby
lock) and counts the rows each side has that the other lacks (multiset difference,
`exceptAll`) over every column but the load times (`benchmarks.cluster.compared_columns`).
Exits 1 and names the model on a difference, 2 if a model is missing or its columns differ.

    python -m benchmarks.compare_warehouses LEFT/cdc.db RIGHT/cdc.db MODEL...
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from pyspark.sql import SparkSession

from benchmarks.cluster import compared_columns


def compare(spark: SparkSession, left: Path, right: Path, models: Sequence[str]) -> list[str]:
    """A line per model; lines starting with 'DIFFERENT' are failures."""
    lines = []
    for model in models:
        ours = spark.read.parquet(str(left / model))
        theirs = spark.read.parquet(str(right / model))
        columns = compared_columns(ours.columns)
        if columns != compared_columns(theirs.columns):
            raise SystemExit(f"{model}: columns differ: {ours.columns} / {theirs.columns}")
        ours, theirs = ours.select(*columns), theirs.select(*columns)
        only_left = ours.exceptAll(theirs).count()
        only_right = theirs.exceptAll(ours).count()
        verdict = "same" if only_left == only_right == 0 else "DIFFERENT"
        lines.append(
            f"{verdict} {model}: {ours.count()} / {theirs.count()} rows, {len(columns)} "
            f"columns; only in the first {only_left}, only in the second {only_right}"
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.compare_warehouses")
    parser.add_argument("left", type=Path, help="one build's schema folder (.../warehouse/cdc.db)")
    parser.add_argument("right", type=Path, help="the other build's schema folder")
    parser.add_argument("models", nargs="+", help="table folders to compare")
    args = parser.parse_args(argv)
    missing = [
        str(folder / model)
        for folder in (args.left, args.right)
        for model in args.models
        if not (folder / model).is_dir()
    ]
    if missing:
        print(f"missing: {missing}", file=sys.stderr)
        return 2
    spark = (
        SparkSession.builder.master("local[*]")
        .appName("cdc-compare-warehouses")
        .config("spark.driver.memory", "2g")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    try:
        lines = compare(spark, args.left, args.right, args.models)
    finally:
        spark.stop()
    print("\n".join(lines))
    return 1 if any(line.startswith("DIFFERENT") for line in lines) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
