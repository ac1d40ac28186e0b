"""Full snapshots of a table model, as a periodic full extract lands them
(docs/full-snapshots.md): the test oracle of the full_snapshot format.

The table model (`table_model.ChangeGenerator`) applies random inserts, updates (NULLs and
hostile texts included), deletes, re-inserts and key updates; a snapshot is the model's whole
state at a moment, stamped with the time the extract ran. `write_snapshot` lands one as
Parquet files named by that time (`2024-01-02T00-00-00Z.parquet`, or
`<time>__part-<n>.parquet` when split), and `state_at` answers what the table held at any
point: the rows of the newest snapshot taken at or before it (nothing before the first).
Nothing here knows how the pipeline derives changes from snapshots.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pyarrow.parquet as pq

from cdc_simulator.qlik_ct import baseline_schema, to_arrow
from cdc_simulator.table_model import UTC, ChangeGenerator, Key, Row, TableSpec


@dataclass(frozen=True)
class Snapshot:
    """The whole table at `at` (UTC): every row, by key."""

    at: datetime
    rows: dict[Key, Row]


def snapshots_of(
    spec: TableSpec,
    *,
    seed: int,
    count: int,
    keys: int = 12,
    changes_between: int = 6,
    start: datetime = datetime(2024, 1, 1, tzinfo=UTC),
    interval: timedelta = timedelta(days=1),
) -> list[Snapshot]:
    """`count` snapshots of one table, `interval` apart from `start`: the first is the
    generator's baseline, each next one the state after `changes_between` more changes."""
    if count < 1:
        raise ValueError("count must be at least 1")
    generator = ChangeGenerator([spec], seed=seed, keys=keys)
    snapshots = [Snapshot(start, dict(generator.state()[spec.name]))]
    for number in range(1, count):
        for _change in generator.changes(changes_between):
            pass
        snapshots.append(Snapshot(start + number * interval, dict(generator.state()[spec.name])))
    return snapshots


def file_stem(at: datetime) -> str:
    """The file-name form of a snapshot time: 2024-01-02T00-00-00Z (microseconds as
    .ffffff when there are any); a file name cannot hold ':'."""
    stem = at.astimezone(UTC).strftime("%Y-%m-%dT%H-%M-%S")
    if at.microsecond:
        stem += f".{at.microsecond:06d}"
    return stem + "Z"


def write_snapshot(
    folder: Path,
    spec: TableSpec,
    snapshot: Snapshot,
    *,
    parts: int = 1,
    rng: random.Random | None = None,
    stem: str | None = None,
) -> list[Path]:
    """Land `snapshot` in `folder` as Parquet (rows shuffled by `rng`, split into `parts`
    files named <stem>__part-<n>.parquet, or <stem>.parquet for one part); `stem` defaults to
    file_stem(snapshot.at). Returns the files written."""
    rows: list[Row] = list(snapshot.rows.values())
    (rng or random.Random(0)).shuffle(rows)
    folder.mkdir(parents=True, exist_ok=True)
    name = stem or file_stem(snapshot.at)
    schema = baseline_schema(spec)
    written = []
    for part in range(parts):
        path = folder / (f"{name}.parquet" if parts == 1 else f"{name}__part-{part + 1}.parquet")
        pq.write_table(to_arrow(schema, rows[part::parts]), path)
        written.append(path)
    return written


def state_at(snapshots: Sequence[Snapshot], point: datetime) -> dict[Key, Row]:
    """The table at `point`: the rows of the newest snapshot taken at or before it, or no rows
    before the first."""
    ordered = sorted(snapshots, key=lambda snapshot: snapshot.at)
    position = bisect_right([snapshot.at for snapshot in ordered], point)
    return dict(ordered[position - 1].rows) if position else {}
