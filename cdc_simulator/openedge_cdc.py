"""What Progress OpenEdge CDC writes for simulated changes: the change-tracking table and one
change table per captured table (spec D), from the same table model as the Qlik emitter.

Per captured table a CDC policy (`Policy`): its level (spec D.5) and `_Source-Table-Number`.

* Tracking table `_Cdc-Change-Tracking` (12.8 field names, or 12.2 with `release="12.2"`,
  spec D.3): one row per operation: 1 create, 2 delete, 4 update (spec D.2), with
  `_Change-Sequence` counting per table (with gaps), `_Tran-Id` per transaction, `_Time-Stamp`
  the commit time (UTC), `_Recid` the row's technical id (kept across updates, also key
  updates; a new one per create), `_Changed-Columns` the names an update changed (what
  `CDC_get_changed_columns` returns).
* Change table `CDC_<table>` at levels 2 and 3 (spec D.4): the after image of creates and
  updates, the deleted row of deletes, and at level 3 the before image of updates (`_Operation`
  3). Levels 0 and 1 write no change rows; a level-0 "key update" of the model is, for the
  capture, a delete and a create (a row has no key, only a `_Recid`).
* Split records (spec D.7) in the raw form: a share of change records is written as a first
  record (`_Continuation-Position` 0) and a continuation (`_Continuation-Position` p: the
  fields after p, 1-based in column order). Field p + 1 is in the continuation, or cut in
  two (`_Fragment` 1: text), or, for an extent field, split at element k (`_ArrayIndex` k: the
  first record holds elements 1 to k - 1). Both records carry `_Fragment` and `_ArrayIndex`.
  The merged form (`split_share=0`) is what OpenEdge SQL returns: one record per change.

The baseline (the model's rows before its first change) is written as creates before the
first change, since OpenEdge CDC has no full load. Everything is grouped into `Unit`s, one per
captured operation, so a test can deliver a unit's rows in different batches.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from cdc_simulator.qlik_ct import arrow_type
from cdc_simulator.table_model import UTC, Change, ColumnSpec, Key, Row, Simulation, TableSpec

TRACKING_TABLE = "cdc_change_tracking"
TRACKING_FIELDS_12_8 = (
    "_Policy-Id",
    "_Tran-Id",
    "_Time-Stamp",
    "_Change-Sequence",
    "_Operation",
    "_Change-FieldMap",
    "_Recid",
    "_Source-Table-Number",
    "_Partition-Id",
    "_Tenant-Id",
    "_Changed-Columns",
)
RENAMED_IN_12_8 = {
    "_Change-FieldMap": "_Source-FieldMap",
    "_Recid": "_Source-Rowid",
    "_Partition-Id": "_Source-Partition-Id",
}
"""12.8 name -> 12.2 name (spec D.3)."""
CHANGE_META_FIELDS = (
    "_Tran-Id",
    "_Time-Stamp",
    "_Change-Sequence",
    "_Operation",
    "_Continuation-Position",
    "_ArrayIndex",
    "_Fragment",
)
CREATE, DELETE, BEFORE_UPDATE, AFTER_UPDATE = 1, 2, 3, 4

CUSTOMER = TableSpec(
    name="customer",
    columns=(
        ColumnSpec("custnum", "int32"),
        ColumnSpec("name", "string"),
        ColumnSpec("balance", "decimal(10,2)"),
        ColumnSpec("comments", "string", nullable=True),
    ),
    key_columns=("custnum",),
)
ITEM = TableSpec(
    name="item",
    columns=(
        ColumnSpec("itemnum", "int32"),
        ColumnSpec("itemname", "string"),
        ColumnSpec("tags", "string", nullable=True, extent=True),
        ColumnSpec("descr", "string", nullable=True),
    ),
    key_columns=("itemnum",),
)
VISIT = TableSpec(
    name="visit",
    columns=(ColumnSpec("visit_no", "int32"), ColumnSpec("note", "string", nullable=True)),
    key_columns=("visit_no",),
)
"""Captured at level 0: the lake sees only which `_Recid`s exist (`recid_state`)."""
RECID_SPEC = TableSpec(
    name="visit", columns=(ColumnSpec("recid", "int64"),), key_columns=("recid",)
)
"""The shape of a level-0 table in the pipeline: its one key column holds `_Recid`."""


@dataclass(frozen=True)
class Policy:
    """A table's CDC policy: the level (0 to 3, spec D.5) and `_Source-Table-Number`."""

    spec: TableSpec
    level: int
    table_number: int

    def __post_init__(self) -> None:
        if self.level not in (0, 1, 2, 3):
            raise ValueError(f"table {self.spec.name}: policy level {self.level} is not 0-3")

    @property
    def change_table(self) -> str:
        return f"cdc_{self.spec.name}"


DEFAULT_POLICIES = (Policy(CUSTOMER, 3, 2), Policy(ITEM, 2, 3), Policy(VISIT, 0, 4))


@dataclass
class Unit:
    """The rows of one captured operation of one table: its tracking row and change records
    (two per split record). `change` is the model's change (None for a baseline create)."""

    table: str
    sequence: int
    operation: int
    recid: int
    commit_time: datetime
    change: Change | None
    tracking: dict[str, object]
    records: list[dict[str, object]] = field(default_factory=list)
    split_kinds: list[str] = field(default_factory=list)
    """Per split record: 'plain', 'fragment' or 'array'."""


@dataclass
class Emitted:
    units: list[Unit]
    sequence_of: dict[str, dict[str, int]]
    """Per table, the model's change_seq -> the `_Change-Sequence` of its (last) unit."""


def emit(
    sim: Simulation,
    policies: Sequence[Policy] = DEFAULT_POLICIES,
    *,
    split_share: float = 0.15,
    seed: int = 0,
) -> Emitted:
    """Every unit of the simulation, baseline creates first, then the changes in order."""
    rng = random.Random(seed)
    by_name = {policy.spec.name: policy for policy in policies}
    next_sequence = dict.fromkeys(by_name, 1000)
    recids: dict[str, dict[Key, int]] = {name: {} for name in by_name}
    next_recid = [1]
    units: list[Unit] = []
    sequence_of: dict[str, dict[str, int]] = {name: {} for name in by_name}
    first_commit = sim.changes[0].commit_time if sim.changes else datetime(2024, 1, 1, tzinfo=UTC)
    transaction_ids: dict[str, int] = {}

    def unit(
        policy: Policy,
        operation: int,
        key: Key,
        before: Row | None,
        after: Row | None,
        when: datetime,
        transaction: int,
        change: Change | None,
    ) -> Unit:
        name = policy.spec.name
        next_sequence[name] += 1 + (rng.random() < 0.1) * int(rng.random() * 5)
        sequence = next_sequence[name]
        if operation == CREATE:
            recids[name][key] = next_recid[0]
            next_recid[0] += 1 + int(rng.random() * 3)
        recid = recids[name][key]
        if operation == DELETE:
            del recids[name][key]
        changed = None
        if operation == AFTER_UPDATE and before is not None and after is not None:
            changed = ",".join(
                column.name
                for column, old, new in zip(policy.spec.columns, before, after, strict=True)
                if old != new
            )
        tracking = {
            "_Policy-Id": f"{name}-policy",
            "_Tran-Id": transaction,
            "_Time-Stamp": when,
            "_Change-Sequence": sequence,
            "_Operation": operation,
            "_Change-FieldMap": None,
            "_Recid": recid,
            "_Source-Table-Number": policy.table_number,
            "_Partition-Id": 0,
            "_Tenant-Id": 0,
            "_Changed-Columns": changed if policy.level >= 1 else None,
        }
        made = Unit(name, sequence, operation, recid, when, change, tracking)
        if policy.level >= 2:
            images: list[tuple[int, Row]] = []
            if operation == CREATE and after is not None:
                images.append((CREATE, after))
            elif operation == DELETE and before is not None:
                images.append((DELETE, before))
            elif operation == AFTER_UPDATE and before is not None and after is not None:
                if policy.level == 3:
                    images.append((BEFORE_UPDATE, before))
                images.append((AFTER_UPDATE, after))
            for record_operation, row in images:
                meta = (transaction, when, sequence, record_operation)
                records, kind = _records(policy.spec, meta, row, rng, split_share)
                made.records.extend(records)
                if kind:
                    made.split_kinds.append(kind)
        return made

    baseline_time = first_commit - timedelta(seconds=1)
    for name, policy in by_name.items():
        for key, row in sorted(sim.baseline.get(name, {}).items(), key=lambda item: repr(item[0])):
            units.append(unit(policy, CREATE, key, None, row, baseline_time, 1, None))
    for change in sim.changes:
        if change.table not in by_name:
            continue
        policy = by_name[change.table]
        spec = policy.spec
        transaction = transaction_ids.setdefault(change.transaction_id, len(transaction_ids) + 2)
        when = change.commit_time
        old_key, new_key = change.key_before(spec), change.key_after(spec)
        if change.op == "I":
            assert new_key is not None  # an insert has its after image
            made = [unit(policy, CREATE, new_key, None, change.after, when, transaction, change)]
        elif change.op == "D":
            assert old_key is not None  # a delete has its before image
            made = [unit(policy, DELETE, old_key, change.before, None, when, transaction, change)]
        elif old_key != new_key and policy.level < 2:
            # no key at level 0/1: for the capture this is a different row
            assert old_key is not None and new_key is not None  # an update has both images
            made = [
                unit(policy, DELETE, old_key, change.before, None, when, transaction, change),
                unit(policy, CREATE, new_key, None, change.after, when, transaction, change),
            ]
        else:
            assert old_key is not None and new_key is not None
            recids[spec.name][new_key] = recids[spec.name].pop(old_key)
            made = [
                unit(
                    policy,
                    AFTER_UPDATE,
                    new_key,
                    change.before,
                    change.after,
                    when,
                    transaction,
                    change,
                )
            ]
        units.extend(made)
        sequence_of[spec.name][change.change_seq] = made[-1].sequence
    return Emitted(units, sequence_of)


def _records(
    spec: TableSpec,
    meta: tuple[int, datetime, int, int],
    row: Row,
    rng: random.Random,
    split_share: float,
) -> tuple[list[dict[str, object]], str | None]:
    """One change record, or a first record and its continuation (spec D.7)."""
    transaction, when, sequence, operation = meta
    names = spec.column_names

    def record(
        values: Sequence[object], position: int, array_index: int, fragment: int
    ) -> dict[str, object]:
        out: dict[str, object] = {
            "_Tran-Id": transaction,
            "_Time-Stamp": when,
            "_Change-Sequence": sequence,
            "_Operation": operation,
            "_Continuation-Position": position,
            "_ArrayIndex": array_index,
            "_Fragment": fragment,
        }
        out.update(zip(names, values, strict=True))
        return out

    if len(names) < 2 or rng.random() >= split_share:
        return [record(row, 0, 0, 0)], None
    position = 1 + int(rng.random() * (len(names) - 1))  # fields 1..p whole in the first
    column, value = spec.columns[position], row[position]
    first: list[object] = [*row[:position], None, *([None] * (len(names) - position - 1))]
    rest: list[object] = [*([None] * position), value, *row[position + 1 :]]
    kind, array_index, fragment = "plain", 0, 0
    elements = value.split(";") if column.extent and isinstance(value, str) else []
    if len(elements) >= 2:
        k = 2 + int(rng.random() * (len(elements) - 1))  # element k starts the continuation
        first[position] = ";".join(elements[: k - 1])
        rest[position] = ";".join(elements[k - 1 :])
        kind, array_index = "array", k
    elif column.type == "string" and isinstance(value, str) and len(value) >= 2:
        cut = 1 + int(rng.random() * (len(value) - 1))
        first[position], rest[position] = value[:cut], value[cut:]
        kind, fragment = "fragment", 1
    return [
        record(first, 0, array_index, fragment),
        record(rest, position, array_index, fragment),
    ], kind


def recid_state(units: Iterable[Unit], table: str) -> dict[Key, Row]:
    """A level-0 table as the lake can know it: the live `_Recid`s after `units` (in order)."""
    live: dict[Key, Row] = {}
    for item in units:
        if item.table != table:
            continue
        if item.operation == CREATE:
            live[(item.recid,)] = (item.recid,)
        elif item.operation == DELETE:
            live.pop((item.recid,), None)
    return live


# ---------------------------------------------------------------------------------------------
# writing


_TRACKING_TYPES = {
    "_Policy-Id": pa.string(),
    "_Tran-Id": pa.int32(),
    "_Time-Stamp": pa.timestamp("us", tz="UTC"),
    "_Change-Sequence": pa.int64(),
    "_Operation": pa.int32(),
    "_Change-FieldMap": pa.string(),
    "_Recid": pa.int64(),
    "_Source-Table-Number": pa.int32(),
    "_Partition-Id": pa.int32(),
    "_Tenant-Id": pa.int32(),
    "_Changed-Columns": pa.string(),
}


def tracking_table(rows: Sequence[Mapping[str, object]], release: str = "12.8") -> pa.Table:
    """Tracking rows as an Arrow table with the release's field names (spec D.3)."""
    if release not in ("12.8", "12.2"):
        raise ValueError(f"release {release!r} is not 12.8 or 12.2")
    names = [
        RENAMED_IN_12_8.get(name, name) if release == "12.2" else name
        for name in TRACKING_FIELDS_12_8
    ]
    arrays = [
        pa.array([row[name] for row in rows], type=_TRACKING_TYPES[name])
        for name in TRACKING_FIELDS_12_8
    ]
    return pa.Table.from_arrays(arrays, names=names)


def change_table(spec: TableSpec, rows: Sequence[Mapping[str, object]]) -> pa.Table:
    """Change records as an Arrow table: metadata fields, then the data columns, typed."""
    meta_types = {
        "_Tran-Id": pa.int32(),
        "_Time-Stamp": pa.timestamp("us", tz="UTC"),
        "_Change-Sequence": pa.int64(),
        "_Operation": pa.int32(),
        "_Continuation-Position": pa.int32(),
        "_ArrayIndex": pa.int32(),
        "_Fragment": pa.int32(),
    }
    arrays = [pa.array([row[name] for row in rows], type=kind) for name, kind in meta_types.items()]
    for column in spec.columns:
        values = [row[column.name] for row in rows]
        if column.is_decimal:
            values = [None if v is None else Decimal(v) for v in values]  # type: ignore[arg-type]
        arrays.append(pa.array(values, type=arrow_type(column)))
    return pa.Table.from_arrays(arrays, names=[*meta_types, *spec.column_names])


def write_parquet(
    root: Path,
    tracking: Sequence[Mapping[str, object]],
    records: Mapping[str, Sequence[Mapping[str, object]]],
    policies: Sequence[Policy] = DEFAULT_POLICIES,
    *,
    part: int,
    release: str = "12.8",
    seed: int = 0,
) -> None:
    """One Parquet file per landed table under `root` (`<table>/part-NNNNN.parquet`), rows in
    shuffled order, as an extraction job lands one batch."""
    rng = random.Random(seed)
    shuffled = list(tracking)
    rng.shuffle(shuffled)
    folder = root / TRACKING_TABLE
    folder.mkdir(parents=True, exist_ok=True)
    pq.write_table(tracking_table(shuffled, release), folder / f"part-{part:05d}.parquet")
    for policy in policies:
        if policy.level < 2:
            continue
        rows = list(records.get(policy.spec.name, []))
        rng.shuffle(rows)
        folder = root / policy.change_table
        folder.mkdir(parents=True, exist_ok=True)
        pq.write_table(change_table(policy.spec, rows), folder / f"part-{part:05d}.parquet")
