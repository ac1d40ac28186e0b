"""How long a user waits for a point in time: each table's `<table>_as_of` and live view.

    python -m benchmarks.point_in_time --label NAME [--schema cdc] [--repeats 5]
        [--tables employees order_lines] [--json benchmarks/results/point_in_time.json]

Reads a project that is already built (`bin/pipeline`, or `cdc-dbt build`, on the
metastore of CDC_LOCAL_DIR): for every table of var cdc_tables (dbt_project.yml), or those
named by `--tables` (e.g. the two of a `benchmarks.pipeline` run's metastore), it times,
on one Spark session built as `cdc-dbt` builds it, `select count(*)` of
`<schema>.<table>_as_of('latest')`, of the same function at a time point, of
`<schema>.dim_<table>_live`, and of `<schema>.<table>_as_of_consistent` at both points,
each `--repeats` times after one untimed warm-up, and records the median seconds under
`--label` in the results JSON (other labels in the file are kept, so a before and an after
sit side by side), with the machine and the row counts. The figures are the query's whole
wall time: on tiny data planning and job scheduling, which is what a chain of view layers
and a recursive CTE cost.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from benchmarks.pipeline import PROJECT_FILE, machine_info

JsonDict = dict[str, Any]
TIME_POINT = "2100-01-01 00:00:00"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--label", required=True, help="the results' key, e.g. the commit")
    parser.add_argument("--schema", default="cdc")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--tables", nargs="+", help="these tables of cdc_tables only")
    parser.add_argument("--json", type=Path, default=Path("benchmarks/results/point_in_time.json"))
    return parser.parse_args(argv)


def queries(schema: str, table: str) -> dict[str, str]:
    """What is timed for one table, by name."""
    return {
        "as_of latest": f"select count(*) from {schema}.{table}_as_of('latest')",
        "as_of time": f"select count(*) from {schema}.{table}_as_of('{TIME_POINT}')",
        "live view": f"select count(*) from {schema}.dim_{table}_live",
        "consistent latest": f"select count(*) from {schema}.{table}_as_of_consistent('latest')",
        "consistent time": (
            f"select count(*) from {schema}.{table}_as_of_consistent('{TIME_POINT}')"
        ),
    }


# the depth from which a value is written on one line: results (0), a label (1), its
# "tables" (2), a table (3)
TABLE_DEPTH = 3


def timed(run: Any, query: str, repeats: int) -> JsonDict:
    """Median and every repeat's seconds of `run(query)`, after one untimed warm-up."""
    rows = run(query)
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        run(query)
        seconds.append(round(time.perf_counter() - start, 3))
    return {"median_seconds": statistics.median(seconds), "seconds": seconds, "rows": rows}


def results_text(results: JsonDict) -> str:
    """The results file's text: labels, machines and tables indented, each table's timings on
    one line (a labelled run adds about twenty lines, not the 900 of one value per line)."""

    def dump(value: Any, depth: int) -> str:
        if depth >= TABLE_DEPTH or not isinstance(value, dict) or not value:
            return json.dumps(value)
        pad = " " * (depth + 1)
        items = (f"{pad}{json.dumps(key)}: {dump(item, depth + 1)}" for key, item in value.items())
        return "{\n" + ",\n".join(items) + "\n" + " " * depth + "}"

    return dump(results, 0) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    from python_udfs.session import (
        build_spark_session,
        prepare_environment,
        project_dir,
        spark_settings,
        stop_spark,
    )

    root = project_dir()
    prepare_environment(root)
    spark = build_spark_session(spark_settings(root / "profiles", None)[1])
    tables = yaml.safe_load(PROJECT_FILE.read_text())["vars"]["cdc_tables"]
    unknown = sorted(set(args.tables or ()) - set(tables))
    if unknown:
        print(f"not in cdc_tables: {', '.join(unknown)}", file=sys.stderr)
        return 2
    if args.tables:
        tables = {name: tables[name] for name in args.tables}

    def run(query: str) -> int:
        return int(spark.sql(query).collect()[0][0])

    measured: JsonDict = {}
    for table, config in tables.items():
        entry: JsonDict = {"source_system": config["source_system"]}
        for name, query in queries(args.schema, table).items():
            entry[name] = timed(run, query, args.repeats)
        measured[table] = entry
        print(
            f"{table:16} {config['source_system']:13} "
            + "  ".join(
                f"{name} {entry[name]['median_seconds']:6.2f} s" for name in queries("", "")
            )
        )
    stop_spark()
    results = json.loads(args.json.read_text()) if args.json.exists() else {}
    results[args.label] = {"machine": machine_info(), "repeats": args.repeats, "tables": measured}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(results_text(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
