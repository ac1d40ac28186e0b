"""The GoldenGate emitter (cdc_simulator.goldengate) without Spark: its trail records obey seed
004's header rules and spec E.3's ordering, transaction and chunk rules, its JSON messages spec
E.4's, and folding either form with a reference reader written here from the spec (chunks
joined in RecCount order, B and A paired, missing columns carried forward, a key update
carrying the old key's row) gives the model's own state."""

from __future__ import annotations

import base64
import json
from datetime import date, datetime
from decimal import Decimal
from itertools import pairwise
from pathlib import Path
from typing import Any

import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

from cdc_simulator.goldengate import (
    DELETE,
    FIELD_COMP,
    INSERT,
    PK_UPDATE,
    TRAIL_FIELDS,
    UNIFIED_PK_UPDATE,
    UPDATE,
    Options,
    Producer,
    TrailRecord,
    _chunked,
    message_table,
    trail_table,
    write_landing,
)
from cdc_simulator.table_model import (
    UTC,
    ColumnSpec,
    Key,
    Row,
    State,
    TableSpec,
    simulate,
)

ORDERS = TableSpec(
    name="orders",
    columns=(
        ColumnSpec("order_id", "int32"),
        ColumnSpec("status", "string", hostile=True),
        ColumnSpec("amount", "decimal(10,2)", nullable=True),
        ColumnSpec("note", "string", nullable=True, width=40),
    ),
    key_columns=("order_id",),
)
DOCS = TableSpec(
    name="docs",
    columns=(
        ColumnSpec("doc_id", "int32"),
        ColumnSpec("lang", "string", width=2),
        ColumnSpec("body", "string", nullable=True, width=90),
        ColumnSpec("due_on", "date", nullable=True),
        ColumnSpec("edited_at", "timestamp", nullable=True),
        ColumnSpec("blob", "binary", nullable=True),
    ),
    key_columns=("lang", "doc_id"),
)
TABLES = (ORDERS, DOCS)
OPTIONS = Options(chunk_size=32, records_per_file=25)


@pytest.fixture(scope="module")
def producer() -> Producer:
    sim = simulate(300, keys=30, seed=11, tables=TABLES)
    return Producer(sim, OPTIONS, seed=11)


def trail(producer: Producer) -> list[TrailRecord]:
    return sorted(
        (record for unit in producer.units for record in unit.records),
        key=lambda record: record.position,
    )


def test_a_streamed_producer_yields_the_eager_producers_units(producer: Producer) -> None:
    """`Producer(..., stream=True).produce()` (the benchmark writes 5 M changes' records a batch
    at a time from it) yields the same units in the same order as the eager `units`: every
    trail record's landed fields and every JSON message's, chunks included (OPTIONS chunks
    long values). A streamed producer holds no unit itself."""
    streamed = Producer(producer.sim, OPTIONS, seed=11, stream=True)
    assert streamed.units == []
    units = list(streamed.produce())
    assert len(units) == len(producer.units) > 300
    assert any(len(unit.records) > 1 for unit in units), "no chunked or paired record: no test"
    for eager, lazy in zip(producer.units, units, strict=True):
        assert [r.fields() for r in lazy.records] == [r.fields() for r in eager.records]
        assert (lazy.message and lazy.message.fields()) == (
            eager.message and eager.message.fields()
        )


# ---------------------------------------------------------------------------------------------
# a reference reader, from the spec


def decode(spec: TableSpec, name: str, value: Any) -> Any:
    column = spec.column(name)
    if value is None:
        return None
    if column.is_decimal:
        return Decimal(value).quantize(Decimal(1).scaleb(-column.scale))
    if column.type == "date":
        return date.fromisoformat(value)
    if column.type == "timestamp":
        return datetime.strptime(value, "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=UTC)
    if column.type == "binary":
        return base64.b64decode(value)
    return value


def row_of(spec: TableSpec, values: dict[str, Any]) -> Row:
    return tuple(values[name] for name in spec.column_names)


def key_of(spec: TableSpec, values: dict[str, Any]) -> Key:
    return tuple(values[name] for name in spec.key_columns)


def typed(spec: TableSpec, image: dict[str, Any] | None) -> dict[str, Any] | None:
    if image is None:
        return None
    return {
        name.lower(): decode(spec, name.lower(), value)
        for name, value in image.items()
        if not name.endswith("_isMissing")
    }


def apply(
    state: dict[Key, dict[str, Any]],
    spec: TableSpec,
    kind: str,
    before: dict[str, Any] | None,
    after: dict[str, Any] | None,
) -> None:
    """Spec F.5 on one table: I sets, U merges (a key change moves the row first), D removes."""
    if kind == "I":
        assert after is not None and set(after) == set(spec.column_names), "inserts are full"
        state[key_of(spec, after)] = dict(after)
        return
    if kind == "D":
        assert before is not None
        del state[key_of(spec, before)]
        return
    assert after is not None
    new_key = key_of(spec, after)
    old_key = new_key
    if before is not None and all(name in before for name in spec.key_columns):
        old_key = key_of(spec, before)
    row = state.pop(old_key)
    row.update(after)
    state[new_key] = row


def fold_trail(producer: Producer) -> State:
    specs = {OPTIONS.table_name(spec): spec for spec in TABLES}
    state: dict[str, dict[Key, dict[str, Any]]] = {spec.name: {} for spec in TABLES}
    records = trail(producer)
    logical: list[tuple[TrailRecord, dict[str, Any] | None, dict[str, Any] | None]] = []
    chain: list[TrailRecord] = []
    for record in records:
        chain.append(record)
        if record.continued == "Y":
            continue
        assert [r.rec_count for r in chain] == list(range(1, len(chain) + 1))
        after: dict[str, Any] | None = None
        for part in sorted(chain, key=lambda r: r.rec_count):
            if part.after is not None:
                after = after or {}
                for name, value in part.after.items():
                    after[name] = after[name] + value if name in after else value
        logical.append((chain[0], chain[0].before, after))
        chain = []
    assert not chain, "the trail ends inside a chain"
    waiting: dict[str, Any] | None = None
    for record, before, after in logical:
        spec = specs[record.table_name]
        if record.before_after == "B" and record.io_type == FIELD_COMP:
            waiting = before
            continue
        kind = {INSERT: "I", DELETE: "D"}.get(record.io_type, "U")
        before = before if waiting is None else waiting
        waiting = None
        apply(state[spec.name], spec, kind, typed(spec, before), typed(spec, after))
    return {
        spec.name: {key: row_of(spec, row) for key, row in state[spec.name].items()}
        for spec in TABLES
    }


def fold_json(producer: Producer) -> State:
    specs = {OPTIONS.table_name(spec): spec for spec in TABLES}
    state: dict[str, dict[Key, dict[str, Any]]] = {spec.name: {} for spec in TABLES}
    messages = sorted(
        (json.loads(unit.message.value) for unit in producer.units if unit.message),
        key=lambda value: value["pos"],
    )
    for value in messages:
        spec = specs[value["table"]]
        apply(
            state[spec.name],
            spec,
            value["op_type"],
            typed(spec, value["before"]),
            typed(spec, value["after"]),
        )
    return {
        spec.name: {key: row_of(spec, row) for key, row in state[spec.name].items()}
        for spec in TABLES
    }


def normalized(state: State) -> State:
    return {
        name: {
            key: tuple(
                value.astimezone(UTC) if isinstance(value, datetime) else value for value in row
            )
            for key, row in rows.items()
        }
        for name, rows in state.items()
    }


# ---------------------------------------------------------------------------------------------
# the tests


def test_trail_folds_to_the_model(producer: Producer) -> None:
    assert fold_trail(producer) == normalized(producer.sim.final)


def test_json_folds_to_the_model(producer: Producer) -> None:
    assert fold_json(producer) == normalized(producer.sim.final)


def test_header_rules(producer: Producer) -> None:
    """Seed 004: Hdr-Ind E; inserts A, deletes B, a unified record A; RecCount counts chunks."""
    for record in trail(producer):
        assert record.header_indicator == "E"
        if record.io_type == INSERT:
            assert record.before_after == "A" and record.before is None
        if record.io_type == DELETE:
            assert record.before_after == "B" and record.after is None
        if record.io_type in (UNIFIED_PK_UPDATE, PK_UPDATE):
            assert record.before_after == "A"
        if record.before_after == "B":
            assert record.after is None and record.continued == "N"


def test_trail_order_and_files(producer: Producer) -> None:
    """Positions are strictly increasing; the RBA restarts when the trail rolls over."""
    records = trail(producer)
    assert len({record.position for record in records}) == len(records)
    seqnos = sorted({record.seqno for record in records})
    assert len(seqnos) > 3 and seqnos == list(range(seqnos[0], seqnos[-1] + 1))
    for a, b in pairwise(records):
        if a.seqno != b.seqno:
            assert b.rba < a.rba


def test_transaction_indicators(producer: Producer) -> None:
    """Spec E.3: a transaction is 0, 1..1, 2 or a single 3; after 2 or 3 the next opens."""
    is_open = False
    for record in trail(producer):
        if record.rec_count > 1:
            continue  # later chunks repeat their record's indicator
        if record.trans_ind in (0, 3):
            assert not is_open
        else:
            assert is_open
        is_open = record.trans_ind in (0, 1)
    assert not is_open
    per_change = [
        {record.tokens["6"] for record in unit.records} for unit in producer.units if unit.change
    ]
    assert all(len(ids) == 1 for ids in per_change)


def test_chunks(producer: Producer) -> None:
    chained = [unit for unit in producer.units if any(r.continued == "Y" for r in unit.records)]
    assert len(chained) > 10, "the options must produce chunk chains"
    for unit in chained:
        chain = [r for r in unit.records if r.io_type != FIELD_COMP or r.before_after == "A"]
        counts = [r.rec_count for r in chain]
        assert counts[0] == 1 and counts == sorted(counts)
        assert [r.continued for r in chain][-1] == "N"
        assert len({r.trans_ind for r in chain}) == 1, "every chunk has its record's TransInd"


def test_chunked_splits_long_strings_only() -> None:
    after = {"ID": 1, "A": "x" * 10, "B": "y" * 25, "C": None}
    chunks = _chunked(after, 10)
    assert chunks == [
        {"ID": 1, "A": "x" * 10, "B": "y" * 10, "C": None},
        {"B": "y" * 10},
        {"B": "y" * 5},
    ]
    assert _chunked(after, 0) == [after]


def test_every_record_form_appears(producer: Producer) -> None:
    records = trail(producer)
    forms = {(record.io_type, record.before_after) for record in records}
    assert {
        (INSERT, "A"),
        (DELETE, "B"),
        (UPDATE, "A"),
        (FIELD_COMP, "A"),
        (FIELD_COMP, "B"),
        (PK_UPDATE, "A"),
        (UNIFIED_PK_UPDATE, "A"),
    } <= forms
    full_deletes = [r for r in records if r.io_type == DELETE and len(r.before or {}) > 2]
    assert full_deletes, "some deletes carry every column (NOCOMPRESSDELETES)"


def test_json_messages(producer: Producer) -> None:
    units = [unit for unit in producer.units if unit.message]
    assert len(units) == len(producer.units)
    partitions = {unit.message.partition for unit in units if unit.message}
    assert partitions == {0, 1, 2}
    missing_flags = 0
    for unit in units:
        assert unit.message is not None
        value = json.loads(unit.message.value)
        assert unit.message.order_key == unit.order_key
        assert value["pos"] == unit.order_key[:10] + unit.order_key[-10:]
        assert value["op_type"] in ("I", "U", "D")
        if value["op_type"] == "U":
            flagged = [name for name in value["after"] if name.endswith("_isMissing")]
            missing_flags += len(flagged)
            for name in flagged:
                assert name.removesuffix("_isMissing") not in value["after"]
    assert missing_flags > 0
    copy = producer.redeliver(units[5].message)  # type: ignore[arg-type]
    original = json.loads(units[5].message.value)  # type: ignore[union-attr]
    replayed = json.loads(copy.value)
    assert replayed.pop("current_ts") != original.pop("current_ts")
    assert replayed == original and copy.offset != units[5].message.offset  # type: ignore[union-attr]


def test_baseline_is_one_transaction_of_inserts(producer: Producer) -> None:
    baseline = [unit for unit in producer.units if unit.change is None]
    assert len(baseline) == sum(len(rows) for rows in producer.sim.baseline.values())
    indicators = [unit.records[0].trans_ind for unit in baseline]
    assert indicators[0] == 0 and indicators[-1] == 2 and set(indicators[1:-1]) <= {1}
    assert all(unit.records[0].io_type == INSERT for unit in baseline)


@pytest.mark.parametrize("fmt", ["parquet", "json", "csv"])
def test_landing_files(tmp_path: Path, producer: Producer, fmt: str) -> None:
    records = trail(producer)[:50]
    table = trail_table(records)
    assert table.column_names == list(TRAIL_FIELDS)
    paths = write_landing(tmp_path / "t", table, files=3, fmt=fmt, duplicates=0.1, seed=1)
    if fmt == "parquet":
        rows = sum(pq.read_table(path).num_rows for path in paths)
    elif fmt == "csv":
        rows = sum(pacsv.read_csv(path).num_rows for path in paths)
    else:
        rows = sum(len(path.read_text(encoding="utf-8").splitlines()) for path in paths)
        first = json.loads(paths[0].read_text(encoding="utf-8").splitlines()[0])
        assert list(first) == list(TRAIL_FIELDS)
    assert rows == 50 + 5
    messages = message_table([unit.message for unit in producer.units[:20] if unit.message])
    assert messages.num_rows == 20
