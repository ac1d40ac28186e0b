"""benchmarks.point_in_time's pure parts (no Spark): what it times for a table, and how."""

from __future__ import annotations

from benchmarks.point_in_time import TIME_POINT, queries, timed


def test_each_table_is_timed_at_latest_at_a_time_and_through_its_live_view() -> None:
    assert queries("cdc", "oe_customer") == {
        "as_of latest": "select count(*) from cdc.oe_customer_as_of('latest')",
        "as_of time": f"select count(*) from cdc.oe_customer_as_of('{TIME_POINT}')",
        "live view": "select count(*) from cdc.dim_oe_customer_live",
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
