"""Test tool for test_postgres_metastore.py: a reader in a Spark session of its own.

python tests/python/metastore_reader.py --until FILE --max-seconds N --then Q... -- Q...
    runs the queries after `--` in rounds, on a session built as cdc-dbt builds it (target
    from CDC_TARGET), until FILE exists (at least one round) or N seconds passed; then runs the
    `--then` queries once. Prints, as the last line, JSON: each round's end time and rows (JSON
    texts), the errors met, and the rows of the `--then` queries.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from python_udfs.session import (
    build_spark_session,
    prepare_environment,
    project_dir,
    spark_settings,
)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--until", type=Path, required=True)
    parser.add_argument("--max-seconds", type=float, default=600)
    parser.add_argument("--then", nargs="*", default=[])
    parser.add_argument("queries", nargs="+")
    options = parser.parse_args()
    root = project_dir()
    prepare_environment(root)
    _target, settings = spark_settings(root / "profiles", None)
    spark = build_spark_session(settings)

    def rows(query: str) -> list[str]:
        found = spark.sql(query).collect()
        return sorted(json.dumps(row.asDict(), default=str, sort_keys=True) for row in found)

    deadline = time.monotonic() + options.max_seconds
    rounds: list[dict[str, object]] = []
    errors: list[str] = []
    while True:
        try:
            results = [rows(query) for query in options.queries]
            rounds.append({"ended_at": time.time(), "rows": results})
        except Exception as error:  # every failure is reported, none stops the reader
            errors.append(str(error)[:2000])
        if (options.until.exists() and rounds) or time.monotonic() > deadline:
            break
    then = [rows(query) for query in options.then]
    print(json.dumps({"rounds": rounds, "errors": errors, "then": then}))
    spark.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
