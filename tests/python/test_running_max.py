"""cdc_running_max (macros/cdc/cdc_running_max.sql): the running maximum taken per segment of a
scope and carried across segments equals the running maximum over the whole scope, as a
plain loop in key order computes it, whatever the segments (one row each, one for the whole
scope, empty segments between), with NULL values ignored and NULL while none is known. The
GoldenGate and OpenEdge change logs take effective_at so (issue 25: no task holds a whole
trail or table)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import jinja2
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.spark

MACRO_FILE = Path(__file__).resolve().parents[2] / "macros" / "cdc" / "cdc_running_max.sql"

Row = tuple[str, int, int | None]  # scope, order key, value


def running_max_sql(relation: str, segment_size: int) -> str:
    """cdc_running_max over `relation` (columns scope, k, v), segments of `segment_size` keys,
    rendered by plain jinja2 from the macro file."""
    environment = jinja2.Environment(undefined=jinja2.StrictUndefined)
    module = environment.from_string(MACRO_FILE.read_text()).module
    return str(
        module.cdc_running_max(  # type: ignore[attr-defined]
            relation, "scoped.v", ["scope"], f"scoped.k div {segment_size}", "k", "v_max"
        )
    )


def expected(rows: Sequence[Row]) -> dict[tuple[str, int], int | None]:
    """The running maximum per scope in key order, NULLs ignored."""
    result: dict[tuple[str, int], int | None] = {}
    largest: dict[str, int | None] = {}
    for scope, key, value in sorted(rows, key=lambda row: (row[0], row[1])):
        known = largest.get(scope)
        if value is not None and (known is None or value > known):
            known = value
        largest[scope] = known
        result[(scope, key)] = known
    return result


def computed(spark: Any, rows: Sequence[Row], segment_size: int) -> dict[tuple[str, int], Any]:
    spark.createDataFrame(list(rows), "scope string, k bigint, v bigint").createOrReplaceTempView(
        "running_max_rows"
    )
    result = spark.sql(running_max_sql("running_max_rows", segment_size)).collect()
    assert len(result) == len(rows), "a row was lost or doubled"
    assert set(result[0].asDict()) == {"scope", "k", "v", "v_max"}, "helper columns leaked"
    return {(row.scope, row.k): row.v_max for row in result}


def test_hand_worked_rows_across_segments(spark: Any) -> None:
    """Segments of ten keys: table a's largest value (50, key 5) carries into its later
    segments, across an empty one (keys 10-19) and over smaller values and NULLs; table b's
    maximum is its own; a scope whose first rows are NULL has NULL until its first value."""
    rows: list[Row] = [
        ("a", 1, 10),
        ("a", 5, 50),
        ("a", 9, None),
        ("a", 21, 20),
        ("a", 22, None),
        ("a", 35, 60),
        ("a", 36, 55),
        ("b", 2, 7),
        ("b", 25, 3),
        ("c", 4, None),
        ("c", 14, None),
        ("c", 15, 1),
    ]
    assert computed(spark, rows, 10) == {
        ("a", 1): 10,
        ("a", 5): 50,
        ("a", 9): 50,
        ("a", 21): 50,
        ("a", 22): 50,
        ("a", 35): 60,
        ("a", 36): 60,
        ("b", 2): 7,
        ("b", 25): 7,
        ("c", 4): None,
        ("c", 14): None,
        ("c", 15): 1,
    }


rows_strategy = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c"]),
        st.integers(min_value=0, max_value=400),
        st.one_of(st.none(), st.integers(min_value=-50, max_value=50)),
    ),
    min_size=1,
    max_size=300,
    unique_by=lambda row: (row[0], row[1]),
)


@settings(
    max_examples=6,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(rows=rows_strategy, segment_size=st.sampled_from([1, 3, 17, 100, 1000]))
def test_any_segments_give_the_whole_scopes_running_max(
    spark: Any, rows: list[Row], segment_size: int
) -> None:
    assert computed(spark, rows, segment_size) == expected(rows)
