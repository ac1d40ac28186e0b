"""benchmarks.point_in_time's pure parts (no Spark): what it times for a table, and how."""

from __future__ import annotations

import json

from benchmarks.point_in_time import TIME_POINT, queries, results_text, timed


def test_each_table_is_timed_at_latest_at_a_time_and_through_its_live_view() -> None:
    assert queries("cdc", "oe_customer") == {
        "as_of latest": "select count(*) from cdc.oe_customer_as_of('latest')",
        "as_of time": f"select count(*) from cdc.oe_customer_as_of('{TIME_POINT}')",
        "live view": "select count(*) from cdc.dim_oe_customer_live",
        "consistent latest": "select count(*) from cdc.oe_customer_as_of_consistent('latest')",
        "consistent time": (
            f"select count(*) from cdc.oe_customer_as_of_consistent('{TIME_POINT}')"
        ),
    }


def test_timed_warms_up_once_then_takes_the_median_of_the_repeats() -> None:
    calls: list[str] = []

    def run(query: str) -> int:
        calls.append(query)
        return 7

    result = timed(run, "select 1", repeats=3)
    assert calls == ["select 1"] * 4
    assert result["rows"] == 7
    assert len(result["seconds"]) == 3
    assert result["median_seconds"] == sorted(result["seconds"])[1]


def test_results_keep_every_value_and_write_each_table_on_one_line() -> None:
    timing = {"median_seconds": 1.0, "seconds": [1.2, 1.0, 0.9], "rows": 4}
    tables = {
        name: {"source_system": "qlik_ct", "as_of latest": timing, "live view": timing}
        for name in ("employees", "order_lines")
    }
    results = {
        "before": {
            "machine": {"cpu_count": 2, "java": 'openjdk "17"'},
            "repeats": 3,
            "tables": tables,
        },
        "after": {"machine": {}, "repeats": 3, "tables": {}},
    }
    text = results_text(results)
    assert json.loads(text) == results
    assert text.endswith("}\n")
    lines = text.splitlines()
    for name in tables:
        [line] = [line for line in lines if line.lstrip().startswith(f'"{name}"')]
        assert json.loads(line.split(": ", 1)[1].rstrip(",")) == tables[name]
    assert len(lines) < 20, text
