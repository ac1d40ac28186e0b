"""Points in time that probe the hard cases of an end-to-end proof, each with the independent
model's state there (cdc_simulator). Shared by the proofs of every format."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from itertools import pairwise

from state_check import Expectation

from cdc_simulator.table_model import Change, Key, Simulation, State, format_time_point


@dataclass
class Point:
    label: str
    value: str
    expected: State


def expectations_at(points: Sequence[Point], function: str, table: str) -> list[Expectation]:
    """`<function>('<point>')` at every point, each expected to hold the model's state of
    `table` there (state_check.check_all checks them a few to a query)."""
    return [
        Expectation(f"{function}('{point.value}')", point.expected[table], point.label)
        for point in points
    ]


def reinsert_positions(sim: Simulation, changes: Sequence[Change]) -> list[int]:
    """The positions in `changes` (in order) of the inserts of a key deleted before."""
    deleted: set[tuple[str, Key]] = set()
    positions = []
    for position, change in enumerate(changes):
        key = (change.table, sim.spec(change.table).key_of(change.row))
        if change.op == "D":
            deleted.add(key)
        elif change.op == "I" and key in deleted:
            positions.append(position)
    return positions


def time_points(sim: Simulation) -> list[Point]:
    """Two time points: a commit time shared by several transactions (all of them in), and a
    moment between two commits (neither the later one nor anything after it)."""
    transactions = sim.transactions()
    shared = [
        a[0].commit_time for a, b in pairwise(transactions) if a[0].commit_time == b[0].commit_time
    ]
    gaps = [
        a[0].commit_time + timedelta(milliseconds=10)
        for a, b in pairwise(transactions)
        if b[0].commit_time - a[0].commit_time >= timedelta(milliseconds=30)
    ]
    assert shared and gaps, "no shared commit time or no gap between commits; change SEED"
    points = []
    for label, moment in (
        ("time shared by several transactions", shared[len(shared) // 2]),
        ("time between two commits", gaps[len(gaps) // 3]),
    ):
        text = format_time_point(moment)
        points.append(Point(f"{label} {text}", text, sim.state_at_time(text)))
    return points
