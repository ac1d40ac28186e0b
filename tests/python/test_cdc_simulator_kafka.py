"""The simulator's Kafka emitter obeys spec B (masks B.5, messages B.2-B.4, ordering and
transactions B.7), and a naive consumer written here from the spec, reading the Parquet topic
files back, folds the messages into the model's state. No Spark, no python_udfs."""

from __future__ import annotations

import json
from datetime import date, datetime
from decimal import Decimal
from itertools import pairwise
from pathlib import Path
from typing import Any

import pyarrow.dataset as ds
import pytest

from cdc_simulator.qlik_kafka import (
    KafkaOptions,
    Message,
    Producer,
    TableVersion,
    hex_mask,
    json_value,
    version_in_force,
    write_topics,
)
from cdc_simulator.table_model import (
    DOCUMENTS,
    EMPLOYEES,
    ORDER_LINES,
    UTC,
    Key,
    Row,
    Simulation,
    State,
    TableSpec,
    simulate,
    widened,
)

TABLES = (*widened((EMPLOYEES, ORDER_LINES), 4, 6), DOCUMENTS)
LOBS = {"documents": ("body", "attachment")}


@pytest.fixture(scope="module", params=["little", "big"])
def published(request: pytest.FixtureRequest) -> tuple[Simulation, Producer, list[Message]]:
    sim = simulate(1500, keys=30, seed=11, tables=TABLES)
    producer = Producer(
        sim,
        KafkaOptions(
            byte_order=request.param, lob_columns=LOBS, versions=3, uncaptured_key_updates=False
        ),
        seed=5,
    )
    messages = [*producer.metadata(), *producer.baseline(), *producer.changes(sim.changes)]
    return sim, producer, messages


def payload(message: Message) -> tuple[dict[str, Any], bool]:
    value = json.loads(message.value)
    if "magic" in value:
        assert value["magic"] == "atMSG"
        return value["message"], True
    return value, False


def mask_bits(text: str, byte_order: str) -> set[int]:
    """Spec B.5 read independently: hex digits, byte 0 first ("little") or reversed."""
    raw = bytes.fromhex(text)
    value = int.from_bytes(raw, "little" if byte_order == "little" else "big")
    return {bit for bit in range(value.bit_length()) if value >> bit & 1}


@pytest.mark.parametrize(
    ("bits", "columns", "order", "trim", "text"),
    [
        pytest.param([2], 3, "little", False, "04", id="B.9: EMAIL, ordinal 3, is bit 2"),
        pytest.param([0, 1, 3], 4, "little", False, "0B", id="B.5: 0B is ordinals 1, 2, 4"),
        pytest.param([0, 2], 3, "little", False, "05", id="B.5 sample columnMask 05"),
        pytest.param([0, 9], 10, "little", False, "0102", id="little: byte 0 first"),
        pytest.param([0, 9], 10, "big", False, "0201", id="big: one hex number"),
        pytest.param([1], 12, "little", False, "0200", id="two bytes untrimmed"),
        pytest.param([1], 12, "little", True, "02", id="trailing zero byte dropped"),
        pytest.param([1], 12, "big", True, "02", id="big, trimmed"),
        pytest.param([], 3, "little", True, "", id="empty mask trimmed"),
        pytest.param([], 9, "big", False, "0000", id="all-zero, two bytes"),
    ],
)
def test_hex_mask(bits: list[int], columns: int, order: str, trim: bool, text: str) -> None:
    assert hex_mask(bits, column_count=columns, byte_order=order, trim=trim) == text
    assert mask_bits(text, order) == set(bits)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        pytest.param(lambda: hex_mask([3], column_count=3, byte_order="little", trim=True), "bit"),
        pytest.param(lambda: hex_mask([0], column_count=3, byte_order="middle", trim=True), "byte"),
        pytest.param(lambda: KafkaOptions(byte_order="middle"), "byte_order"),
        pytest.param(lambda: KafkaOptions(trim="sometimes"), "trim"),
        pytest.param(lambda: KafkaOptions(partitions=0), "partitions"),
    ],
)
def test_bad_arguments_raise(call: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()


def test_lob_columns_must_be_text_or_binary() -> None:
    sim = simulate(20, keys=10, seed=1, tables=(EMPLOYEES,))
    with pytest.raises(ValueError, match="LOB"):
        Producer(sim, KafkaOptions(lob_columns={"employees": ("salary",)}), seed=1)
    with pytest.raises(ValueError, match="no column"):
        Producer(sim, KafkaOptions(lob_columns={"employees": ("nope",)}), seed=1)


@pytest.mark.parametrize(
    ("value", "numbers", "expected"),
    [
        pytest.param(None, False, None, id="null"),
        pytest.param(7, True, 7, id="int as number"),
        pytest.param(7, False, "7", id="int as text"),
        pytest.param(Decimal("12.50"), True, "12.50", id="decimal keeps its scale"),
        pytest.param(b"\xca\xfe", False, "CAFE", id="bytes as hex (B.1)"),
        pytest.param(date(1900, 1, 1), False, "1900-01-01", id="date"),
        pytest.param(
            datetime(2024, 3, 1, 13, 0, 0, 5, tzinfo=UTC),
            False,
            "2024-03-01 13:00:00.000005",
            id="datetime UTC, microseconds",
        ),
    ],
)
def test_json_value(value: object, numbers: bool, expected: object) -> None:
    assert json_value(value, numbers=numbers) == expected


def test_metadata_per_table_version(published: tuple[Simulation, Producer, list[Message]]) -> None:
    sim, producer, messages = published
    metadata = [m for m in messages if m.operation == "MD"]
    assert {m.topic for m in metadata} == {"kafka_metadata"}
    assert len(metadata) == sum(len(v) for v in producer.versions.values()) == 3 * len(TABLES)
    enveloped = set()
    for message in metadata:
        body, wrapped = payload(message)
        enveloped.add(wrapped)
        lineage = body["lineage"]
        spec = sim.spec(lineage["table"].lower())
        columns = body["tableStructure"]["tableColumns"]
        assert sorted(c["ordinal"] for c in columns.values()) == list(
            range(1, len(spec.columns) + 1)
        )
        keys = sorted((c["primaryKeyPosition"], n.lower()) for n, c in columns.items())
        assert [name for position, name in keys if position] == list(spec.key_columns)
        version = producer.versions[spec.name][lineage["tableVersion"] - 1]
        assert body["schemaId"] == version.schema_id
        assert (
            lineage["timestamp"].replace("T", " ")[:23]
            == f"{version.starts_at:%Y-%m-%d %H:%M:%S.%f}"[:23]
        )
    assert enveloped == {True, False}
    for spec in TABLES:
        versions = producer.versions[spec.name]
        orders = [tuple(c.name for c in v.columns) for v in versions]
        assert len(set(orders)) == len(orders), "each version moves a column"
        assert all(a.starts_at < b.starts_at for a, b in pairwise(versions))
        # no change before a version's start shares its commit time: "at or after" is clean
        for version in versions[1:]:
            first = next(i for i, c in enumerate(sim.changes) if c.commit_time == version.starts_at)
            assert first > 0 and sim.changes[first - 1].commit_time < version.starts_at


def test_masks_follow_spec_b5(published: tuple[Simulation, Producer, list[Message]]) -> None:
    sim, producer, messages = published
    order = producer.options.byte_order
    by_seq = {change.change_seq: change for change in sim.changes}
    seen: set[str] = set()
    for message in messages:
        if message.change_seq is None:
            continue
        change = by_seq[message.change_seq]
        spec = sim.spec(change.table)
        body, _ = payload(message)
        headers = body["headers"]
        version = version_in_force(producer.versions[spec.name], change.commit_time)
        if "externalSchemaId" in headers:
            assert headers["externalSchemaId"] == version.schema_id
            seen.add("external schema id")
        names = [column.name for column in version.columns]
        lobs = {column.name for column in version.columns if column.is_lob}
        changed = {names[bit] for bit in mask_bits(headers["changeMask"], order)}
        present = {names[bit] for bit in mask_bits(headers["columnMask"], order)}
        assert len(headers["changeMask"]) <= 2 * ((len(names) + 7) // 8)
        assert not changed & lobs, "LOB columns are never in changeMask"
        if change.op == "I":
            assert changed == set(names) - lobs
        elif change.op == "D":
            assert changed == set(spec.key_columns)
        else:
            assert change.before is not None and change.after is not None
            differing = {
                name
                for name, old, new in zip(
                    spec.column_names, change.before, change.after, strict=True
                )
                if old != new
            }
            assert changed == differing - lobs
            if differing & lobs:
                seen.add("LOB change outside changeMask")
        assert set(spec.key_columns) | changed <= present
        if present != set(names):
            seen.add("columns not captured")
            assert not change.is_key_update(spec), (
                "without uncaptured_key_updates, key updates capture every column"
            )
        for image in (body["data"], body["beforeData"]):
            for name, value in (image or {}).items():
                assert name.lower() in present or value is None, (message.change_seq, name)
        if change.op == "D":
            assert (body["data"] is None) != (body["beforeData"] is None)
            seen.add("delete in data" if body["data"] else "delete in beforeData")
        if change.op == "U" and body["beforeData"] is None:
            assert not change.is_key_update(spec)
            seen.add("update without beforeData")
        if len(headers["changeMask"]) < 2 * ((len(names) + 7) // 8):
            seen.add("trimmed mask")
    assert seen == {
        "external schema id",
        "LOB change outside changeMask",
        "columns not captured",
        "delete in data",
        "delete in beforeData",
        "update without beforeData",
        "trimmed mask",
    }


def test_transactions_and_partitions(
    published: tuple[Simulation, Producer, list[Message]],
) -> None:
    sim, _producer, messages = published
    headers = {m.change_seq: payload(m)[0]["headers"] for m in messages if m.change_seq is not None}
    for transaction in sim.transactions():
        counters = [headers[c.change_seq]["transactionEventCounter"] for c in transaction]
        lasts = [headers[c.change_seq]["transactionLastEvent"] for c in transaction]
        assert counters == list(range(1, len(transaction) + 1))
        assert lasts == [False] * (len(transaction) - 1) + [True]
        assert {headers[c.change_seq]["transactionId"] for c in transaction} == {
            transaction[0].transaction_id
        }
    refresh = [m for m in messages if m.operation == "REFRESH"]
    assert len(refresh) == sum(len(rows) for rows in sim.baseline.values())
    assert all(set(payload(m)[0]["headers"]) == {"operation"} for m in refresh)
    assert max(m.timestamp for m in refresh) < sim.changes[0].commit_time
    places: dict[tuple[str, int], list[int]] = {}
    for message in messages:
        places.setdefault((message.topic, message.partition), []).append(message.offset)
    for offsets in places.values():
        assert offsets == list(range(len(offsets))), "offsets count up within a partition"
    for spec in TABLES:
        partitions = {p for t, p in places if t == f"kafka_{spec.name}"}
        assert partitions == {0, 1, 2}
        data = [
            (m.change_seq, m.offset)
            for m in messages
            if m.topic == f"kafka_{spec.name}" and m.change_seq
        ]
        # offsets across partitions disagree with change order
        assert any(a[0] < b[0] and a[1] > b[1] for a, b in pairwise(data))


# ---------------------------------------------------------------------------------------------
# a naive consumer, from spec B alone


def typed(text: Any, qlik_type: str) -> object:
    if text is None:
        return None
    text = str(text)
    if qlik_type in ("INT4", "INT8"):
        return int(text)
    if qlik_type == "NUMERIC":
        return Decimal(text)
    if qlik_type == "DATE":
        return date.fromisoformat(text)
    if qlik_type == "DATETIME":
        return datetime.strptime(text, "%Y-%m-%d %H:%M:%S.%f").replace(tzinfo=UTC)
    if qlik_type in ("BYTES", "BLOB"):
        return bytes.fromhex(text)
    return text


def decoded_image(
    raw: dict[str, Any] | None, columns: dict[str, Any], present: set[str]
) -> dict[str, object] | None:
    """The present columns of a data/beforeData object, typed by the metadata's types."""
    if raw is None:
        return None
    return {
        name.lower(): typed(raw.get(name), meta["type"])
        for name, meta in columns.items()
        if name.lower() in present
    }


def consume(
    root: Path, tables: tuple[TableSpec, ...], byte_order: str, upto: str | None = None
) -> State:
    """Read topic files, dedupe, decode with the version in force, fold in changeSequence
    order (REFRESH first) carrying uncaptured columns forward."""
    frame = ds.dataset(root, format="parquet").to_table().to_pylist()
    versions: dict[tuple[str, str], dict[str, Any]] = {}
    by_time: dict[str, list[tuple[datetime, dict[str, Any]]]] = {}
    for record in frame:
        body, _ = payload(Message(**record, operation="?"))
        if "lineage" in body:
            table = body["lineage"]["table"].lower()
            versions[(table, body["schemaId"])] = body
            moment = datetime.fromisoformat(body["lineage"]["timestamp"]).replace(tzinfo=UTC)
            by_time.setdefault(table, []).append((moment, body))
    specs = {spec.name: spec for spec in tables}
    changes: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {}
    refresh: dict[tuple[str, Key], Row] = {}
    for record in frame:
        body, _ = payload(Message(**record, operation="?"))
        if "lineage" in body:
            continue
        table = record["topic"].removeprefix("kafka_")
        spec = specs[table]
        headers = body["headers"]
        sequence = headers.get("changeSequence")
        if sequence is not None and upto is not None and sequence > upto:
            continue
        if "externalSchemaId" in headers:
            meta = versions[(table, headers["externalSchemaId"])]
        else:
            moment = (
                record["timestamp"]
                if sequence is None
                else datetime.strptime(sequence[:16] + "0000", "%Y%m%d%H%M%S%f").replace(tzinfo=UTC)
            )
            meta = max((m for m in by_time[table] if m[0] <= moment), key=lambda m: m[0])[1]
        columns = meta["tableStructure"]["tableColumns"]
        names = sorted(columns, key=lambda name: columns[name]["ordinal"])
        present = (
            {names[bit].lower() for bit in mask_bits(headers["columnMask"], byte_order)}
            if "columnMask" in headers
            else {name.lower() for name in names}
        )

        decoded = {
            "op": headers["operation"],
            "data": decoded_image(body["data"], columns, present),
            "before": decoded_image(body["beforeData"], columns, present),
        }
        if sequence is None:
            row = tuple(decoded["data"][name] for name in spec.column_names)
            refresh[(table, spec.key_of(row))] = row
        else:
            changes[(table, sequence)] = (sequence, decoded)  # duplicates collapse
    state: State = {spec.name: {} for spec in tables}
    for (table, key), row in refresh.items():
        state[table][key] = row
    for (table, _), (_, change) in sorted(changes.items(), key=lambda item: item[1][0]):
        spec = specs[table]
        rows = state[table]
        if change["op"] == "DELETE":
            image_ = change["data"] or change["before"]
            key = tuple(image_[name] for name in spec.key_columns)
            del rows[key]
            continue
        after = change["data"]
        if change["op"] == "INSERT":
            row = tuple(after[name] for name in spec.column_names)
            rows[spec.key_of(row)] = row
            continue
        before = change["before"]
        new_key = tuple(after[name] for name in spec.key_columns)
        old_key = tuple(before[name] for name in spec.key_columns) if before else new_key
        previous = dict(zip(spec.column_names, rows.pop(old_key), strict=True))
        previous.update(after)
        row = tuple(previous[name] for name in spec.column_names)
        rows[spec.key_of(row)] = row
    return state


def test_naive_consumer_replays_the_model(tmp_path: Path) -> None:
    sim = simulate(800, keys=25, seed=3, tables=TABLES)
    options = KafkaOptions(byte_order="big", lob_columns=LOBS, uncaptured=0.4)
    producer = Producer(sim, options, seed=9)
    changes = producer.changes(sim.changes)
    late = changes[len(changes) // 2 :: 7]
    first = [m for m in changes if m not in late]
    root = tmp_path / "topics"
    write_topics(
        root, [*producer.metadata(), *producer.baseline(), *first], files=3, duplicates=0.05
    )
    written = write_topics(root, [*late, *(producer.redeliver(m) for m in first[::13])], seed=1)
    assert all(path.name.startswith("part-") for paths in written.values() for path in paths)
    assert consume(root, TABLES, "big") == sim.final
    middle = sim.changes[len(sim.changes) // 2].change_seq
    assert consume(root, TABLES, "big", upto=middle) == sim.state_at(middle)
    # read with the other byte order, the masks name other columns: the check can fail
    with pytest.raises((AssertionError, KeyError, IndexError, TypeError)):
        assert consume(root, TABLES, "little") == sim.final


def test_json_lines_topic_files(tmp_path: Path) -> None:
    sim = simulate(60, keys=10, seed=5, tables=TABLES)
    producer = Producer(sim, KafkaOptions(lob_columns=LOBS), seed=2)
    messages = [*producer.metadata(), *producer.changes(sim.changes)]
    first = write_topics(tmp_path, messages[:30], fmt="json", shuffle=False)
    second = write_topics(tmp_path, messages[30:], fmt="json", files=2, shuffle=False)
    assert [p.name for p in first["kafka_metadata"]] == ["part-00000.json"]
    assert second["kafka_employees"][0].name == "part-00001.json", "appends"
    landed = []
    for path in sorted(tmp_path.glob("*/part-*.json")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            assert list(record) == ["topic", "partition", "offset", "key", "value", "timestamp"]
            assert isinstance(record["value"], str), "the value stays the message's JSON text"
            landed.append((record["topic"], record["partition"], record["offset"], record["value"]))
    expected = [(m.topic, m.partition, m.offset, m.value) for m in messages]
    assert sorted(landed) == sorted(expected)
    with pytest.raises(ValueError, match="format"):
        write_topics(tmp_path, messages, fmt="avro")


def test_key_updates_may_capture_some_columns_by_default() -> None:
    sim = simulate(1500, keys=30, seed=11, tables=TABLES)
    options = KafkaOptions(lob_columns=LOBS, uncaptured=0.5)
    producer = Producer(sim, options, seed=5)
    partial = 0
    for change in sim.changes:
        spec = sim.spec(change.table)
        if not change.is_key_update(spec):
            continue
        message = producer.change(change)
        body, _ = payload(message)
        version = version_in_force(producer.versions[spec.name], change.commit_time)
        present = mask_bits(body["headers"]["columnMask"], "little")
        partial += len(present) < len(version.columns)
    assert partial > 0


def test_same_seed_same_messages() -> None:
    sim = simulate(100, keys=10, seed=2, tables=TABLES)

    def run() -> list[tuple[object, ...]]:
        producer = Producer(sim, KafkaOptions(lob_columns=LOBS), seed=4)
        return [m.row() for m in [*producer.metadata(), *producer.changes(sim.changes)]]

    assert run() == run()


def test_version_in_force_needs_a_version() -> None:
    version = TableVersion("t", 1, "X", (), datetime(2024, 1, 1, tzinfo=UTC))
    assert version_in_force([version], datetime(2024, 1, 2, tzinfo=UTC)) is version
    with pytest.raises(ValueError, match="no version"):
        version_in_force([version], datetime(2023, 1, 1, tzinfo=UTC))
