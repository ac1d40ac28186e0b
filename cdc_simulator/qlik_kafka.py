"""What Qlik Replicate's Kafka target publishes for simulated changes (spec B).

The same table model as `qlik_ct` (`table_model.Simulation`), published as Kafka messages:

* metadata (MD) messages on one metadata topic, one per table version (spec B.3): lineage
  (server, task, schema, TABLE, tableVersion, timestamp) and the column list by ordinal with
  Replicate's type names (INT4, INT8, NUMERIC(p, s), DATE, DATETIME, WSTRING, BYTES; columns
  named in `lob_columns` are NCLOB or BLOB). Version 1 lists the columns in physical order;
  each later version is a simulated DDL that moves one non-key column to the last ordinal
  (as a drop and re-add would, values kept), so a mask decoded with the wrong version names
  the wrong columns. A version is in force from its lineage timestamp, a commit time that
  no earlier change shares; a message may also name it by `externalSchemaId`.
* data (DT) messages on one topic per table (spec B.2, B.4): with the `atMSG` envelope or
  without, `data`, `beforeData`, `headers` (operation, changeSequence, timestamp,
  streamPosition, transactionId, changeMask, columnMask, transactionEventCounter,
  transactionLastEvent, sometimes externalSchemaId). The baseline is published as REFRESH
  messages (no CDC headers) before the first change.
* masks (spec B.5) are hex text over the data-column ordinals of the version in force, bit k
  = ordinal k + 1, written in the configured byte order ("little": byte 0 first; "big": one
  hexadecimal number), sometimes without their trailing zero bytes. INSERT marks every
  non-LOB column, DELETE the key columns, UPDATE the columns whose value differs (never a
  LOB). columnMask marks the columns present: all of them, except in an update "without
  full supplemental logging", where only the key and the changed columns are captured and
  the others are left out of data and beforeData or written as null (an update that
  changes the key only with `uncaptured_key_updates`).
* a DELETE carries the deleted row in `data` (beforeData null), sometimes only in
  `beforeData`; a few updates that keep their key carry no beforeData.

Messages get a random partition of their topic and the next offset there, in publishing
order, so offsets agree with change order within a partition only. `Producer.redeliver`
publishes a message again (at-least-once delivery: same value, new offset); landing the same
file rows twice is `write_topics(..., duplicates=...)`. Written as Parquet topic files
`<root>/<topic>/part-NNNNN.parquet` with the columns a Kafka sink lands: topic, partition,
offset, key, value (the JSON text), timestamp; or as JSON Lines (`fmt="json"`).

Independent of the pipeline: masks are encoded here, not with python_udfs.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

import pyarrow as pa

from cdc_simulator.qlik_ct import PartWriter, scatter, trims_mask, value_text
from cdc_simulator.table_model import UTC, Change, ColumnSpec, Row, Simulation, TableSpec

ENVELOPE_MAGIC = "atMSG"
BYTE_ORDERS = ("little", "big")
METADATA_TOPIC = "kafka_metadata"
LOB_TYPES = {"string": "NCLOB", "binary": "BLOB"}
OPERATIONS = {"I": "INSERT", "U": "UPDATE", "D": "DELETE"}
TOPIC_SCHEMA = pa.schema(
    [
        pa.field("topic", pa.string()),
        pa.field("partition", pa.int32()),
        pa.field("offset", pa.int64()),
        pa.field("key", pa.string()),
        pa.field("value", pa.string()),
        pa.field("timestamp", pa.timestamp("us", tz="UTC")),
    ]
)
_QLIK_TYPES = {
    "int32": "INT4",
    "int64": "INT8",
    "string": "WSTRING",
    "date": "DATE",
    "timestamp": "DATETIME",
    "binary": "BYTES",
}


# ---------------------------------------------------------------------------------------------
# options, versions, messages


@dataclass(frozen=True)
class KafkaOptions:
    """How the Kafka target is configured, and how often each message shape occurs."""

    source_schema: str = "SIM"
    task: str = "sim_to_kafka"
    metadata_topic: str = METADATA_TOPIC
    topic_prefix: str = "kafka_"
    partitions: int = 3
    byte_order: str = "little"
    trim: str = "random"
    """Trailing zero bytes of a mask dropped: always, never or random (as in qlik_ct)."""
    versions: int = 2
    """Table versions per table (metadata messages); each later one moves a column."""
    envelope: float = 0.6
    """Chance that a message is wrapped in the atMSG envelope."""
    external_schema_id: float = 0.5
    """Chance that a data message names its version with the externalSchemaId header."""
    uncaptured: float = 0.25
    """Chance that an update captures only its key and changed columns (columnMask)."""
    uncaptured_key_updates: bool = True
    """Whether an update that changes the key may capture only some columns too; a reader
    must then carry the old key's state over to the new key (spec F.5 step 2, see
    cdc_state_images). Off: key updates always capture every column."""
    uncaptured_as_null: float = 0.5
    """Chance that a column not captured is written as null rather than left out."""
    delete_before_data_only: float = 0.15
    """Chance that a DELETE carries the deleted row in beforeData only (data null)."""
    update_without_before: float = 0.05
    """Chance that an update keeping its key carries no beforeData."""
    numbers_as_json: float = 0.5
    """Chance that a message writes integer values as JSON numbers instead of strings."""
    lob_columns: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Table name -> columns typed as LOBs (NCLOB, BLOB): never marked in changeMask."""
    binary_encodings: Mapping[str, str] = field(default_factory=dict)
    """Table name -> how its binary values are written: hex (spec B.1, the default) or
    base64 (a table configured with column_encodings base64)."""

    def __post_init__(self) -> None:
        if self.byte_order not in BYTE_ORDERS:
            raise ValueError(f"byte_order must be one of {BYTE_ORDERS}, got {self.byte_order!r}")
        if self.partitions < 1 or self.versions < 1:
            raise ValueError("partitions and versions must be >= 1")
        trims_mask(0, self.trim)  # raises for an unknown policy

    def topic(self, table: str) -> str:
        return self.topic_prefix + table


@dataclass(frozen=True)
class ColumnMeta:
    """One column of a table version (spec B.3)."""

    name: str
    ordinal: int
    qlik_type: str
    length: int
    precision: int
    scale: int
    key_position: int

    @property
    def source_name(self) -> str:
        return self.name.upper()

    @property
    def is_lob(self) -> bool:
        return self.qlik_type in LOB_TYPES.values()


@dataclass(frozen=True)
class TableVersion:
    """The column list of one table version and the instant it comes into force."""

    table: str
    version: int
    schema_id: str
    columns: tuple[ColumnMeta, ...]
    """In ordinal order: columns[k] has ordinal k + 1 and mask bit k."""
    starts_at: datetime

    def bits(self, names: Iterable[str]) -> list[int]:
        """Mask bit positions (ordinal - 1) of these column names."""
        position = {column.name: column.ordinal - 1 for column in self.columns}
        return sorted(position[name] for name in names)


@dataclass(frozen=True)
class Message:
    """One Kafka record as a sink lands it; `change_seq` and `operation` say what it carries
    (None, "MD" for metadata; REFRESH has no change_seq)."""

    topic: str
    partition: int
    offset: int
    key: str | None
    value: str
    timestamp: datetime
    operation: str
    change_seq: str | None = None

    def row(self) -> tuple[object, ...]:
        return (self.topic, self.partition, self.offset, self.key, self.value, self.timestamp)


def qlik_type(column: ColumnSpec, *, lob: bool = False) -> tuple[str, int, int, int]:
    """Replicate's type name, length, precision and scale for a model column (spec B.3)."""
    if lob:
        if column.type not in LOB_TYPES:
            raise ValueError(f"column {column.name}: only string and binary columns are LOBs")
        return LOB_TYPES[column.type], 0, 0, 0
    if column.is_decimal:
        return "NUMERIC", 0, column.precision, column.scale
    return _QLIK_TYPES[column.type], column.width, 0, 0


def hex_mask(bits: Iterable[int], *, column_count: int, byte_order: str, trim: bool) -> str:
    """A mask as hex text (spec B.5): bit k = ordinal k + 1, ceil(columns / 8) bytes (fewer
    when `trim` drops trailing zero bytes); "little" writes byte 0 first, "big" the bytes
    reversed, i.e. one hexadecimal number."""
    if byte_order not in BYTE_ORDERS:
        raise ValueError(f"byte_order must be one of {BYTE_ORDERS}, got {byte_order!r}")
    value = 0
    for bit in bits:
        if not 0 <= bit < column_count:
            raise ValueError(f"bit {bit} is outside {column_count} columns")
        value |= 1 << bit
    length = (value.bit_length() + 7) // 8 if trim else (column_count + 7) // 8
    raw = value.to_bytes(length, "little")
    return (raw if byte_order == "little" else raw[::-1]).hex().upper()


def json_value(value: object, *, numbers: bool, binary_encoding: str = "hex") -> object:
    """A model value as the JSON of a data message: text, hex for bytes (or Base64 text),
    integers as JSON numbers when `numbers`, times UTC 'yyyy-MM-dd HH:mm:ss.ffffff', null
    stays null."""
    if value is None:
        return None
    if isinstance(value, bytes) and binary_encoding == "base64":
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, bool):
        raise TypeError("the table model has no boolean columns")
    if isinstance(value, int):
        return value if numbers else str(value)
    return value_text(value)


def header_time(moment: datetime) -> str:
    """A header timestamp as observed (spec B.4): 'YYYY-MM-DDTHH:MM:SS.fff', UTC."""
    moment = moment.astimezone(UTC)
    return f"{moment:%Y-%m-%dT%H:%M:%S}.{moment.microsecond // 1000:03d}"


# ---------------------------------------------------------------------------------------------
# table versions


def version_starts(sim: Simulation, versions: int, table_index: int) -> list[datetime]:
    """When versions 2.. of a table come into force: commit times of changes spread over the
    run, each one that no earlier change shares (so "at or after" splits the run cleanly)."""
    changes = sim.changes
    starts: list[datetime] = []
    for version in range(2, versions + 1):
        index = len(changes) * (version - 1) // versions + table_index * 7
        index = min(max(index, 1), len(changes) - 1) if len(changes) > 1 else 0
        while 0 < index < len(changes) and changes[index - 1].commit_time >= (
            changes[index].commit_time
        ):
            index += 1
        if not 0 < index < len(changes):
            break
        moment = changes[index].commit_time
        if not starts or moment > starts[-1]:
            starts.append(moment)
    return starts


def table_versions(
    sim: Simulation, options: KafkaOptions, *, first_at: datetime
) -> dict[str, list[TableVersion]]:
    """Each table's versions: 1 in physical column order from `first_at`, then each later one
    with the next non-key column moved to the last ordinal."""
    out: dict[str, list[TableVersion]] = {}
    for table_index, spec in enumerate(sim.tables):
        lobs = set(options.lob_columns.get(spec.name, ()))
        unknown = lobs - set(spec.column_names)
        if unknown:
            raise ValueError(f"lob_columns of {spec.name}: no column {sorted(unknown)}")
        order = list(spec.column_names)
        movable = [name for name in order if name not in spec.key_columns]
        starts = [first_at, *version_starts(sim, options.versions, table_index)]
        versions = []
        for number, starts_at in enumerate(starts, start=1):
            if number > 1 and movable:
                moved = movable[(number - 2) % len(movable)]
                order.remove(moved)
                order.append(moved)
            columns = []
            for ordinal, name in enumerate(order, start=1):
                column = spec.column(name)
                kind, length, precision, scale = qlik_type(column, lob=name in lobs)
                key_position = spec.key_columns.index(name) + 1 if name in spec.key_columns else 0
                columns.append(
                    ColumnMeta(name, ordinal, kind, length, precision, scale, key_position)
                )
            schema_id = hashlib.sha256(f"{spec.name}:{number}".encode()).hexdigest()[:32].upper()
            versions.append(TableVersion(spec.name, number, schema_id, tuple(columns), starts_at))
        out[spec.name] = versions
    return out


def version_in_force(versions: Sequence[TableVersion], moment: datetime) -> TableVersion:
    """The newest version whose start is at or before `moment`."""
    chosen = [version for version in versions if version.starts_at <= moment]
    if not chosen:
        raise ValueError(f"no version of {versions[0].table} in force at {moment}")
    return chosen[-1]


# ---------------------------------------------------------------------------------------------
# message values


def _wrap(payload: Mapping[str, object], kind: str, envelope: bool) -> str:
    if envelope:
        payload = {
            "magic": ENVELOPE_MAGIC,
            "type": kind,
            "headers": None,
            "messageSchemaId": None,
            "messageSchema": None,
            "message": payload,
        }
    return json.dumps(payload, ensure_ascii=False)


def metadata_value(version: TableVersion, options: KafkaOptions, *, envelope: bool) -> str:
    """The JSON of a metadata message (spec B.3)."""
    columns = {
        column.source_name: {
            "ordinal": column.ordinal,
            "type": column.qlik_type,
            "length": column.length,
            "precision": column.precision,
            "scale": column.scale,
            "primaryKeyPosition": column.key_position,
        }
        for column in version.columns
    }
    payload = {
        "schemaId": version.schema_id,
        "lineage": {
            "server": "sim01",
            "task": options.task,
            "schema": options.source_schema,
            "table": version.table.upper(),
            "tableVersion": version.version,
            "timestamp": header_time(version.starts_at),
        },
        "tableStructure": {"tableColumns": columns},
        "dataSchema": "{}",
    }
    return _wrap(payload, "MD", envelope)


def _image(
    spec: TableSpec,
    version: TableVersion,
    row: Row | None,
    present: set[str],
    nulls: set[str],
    numbers: bool,
    binary_encoding: str = "hex",
) -> dict[str, object] | None:
    """A row as the data/beforeData object: present columns by source name; columns in
    `nulls` written as null, columns in neither left out."""
    if row is None:
        return None
    values = dict(zip(spec.column_names, row, strict=True))
    image: dict[str, object] = {}
    for column in version.columns:
        if column.name in present:
            image[column.source_name] = json_value(
                values[column.name], numbers=numbers, binary_encoding=binary_encoding
            )
        elif column.name in nulls:
            image[column.source_name] = None
    return image


def message_key(spec: TableSpec, row: Row) -> str:
    return "+".join(str(json_value(value, numbers=False)) for value in spec.key_of(row))


# ---------------------------------------------------------------------------------------------
# the producer


class Producer:
    """Publishes the messages of one simulation: partitions, offsets and values, seeded.

    `metadata()` and `baseline()` give the MD and REFRESH messages, `change(c)` the DT
    message of one change (its transaction fields from the simulation), `redeliver(m)` a
    copy of a message at a new offset.
    """

    def __init__(
        self,
        sim: Simulation,
        options: KafkaOptions | None = None,
        *,
        seed: int,
        first_at: datetime | None = None,
    ) -> None:
        self.sim = sim
        self.options = options or KafkaOptions()
        self.rng = random.Random(seed)
        first_change = sim.changes[0].commit_time if sim.changes else datetime.now(UTC)
        self.first_at = first_at or first_change - timedelta(minutes=30)
        if self.first_at >= first_change:
            raise ValueError("first_at must be before the first change")
        self.versions = table_versions(sim, self.options, first_at=self.first_at)
        self.specs = {spec.name: spec for spec in sim.tables}
        self._offsets: dict[tuple[str, int], int] = {}
        self._place: dict[str, tuple[int, bool]] = {}
        for transaction in sim.transactions():
            for counter, change in enumerate(transaction, start=1):
                self._place[change.change_seq] = (counter, counter == len(transaction))

    def _encoding(self, spec: TableSpec) -> str:
        return self.options.binary_encodings.get(spec.name, "hex")

    def _publish(
        self,
        topic: str,
        key: str | None,
        value: str,
        at: datetime,
        operation: str,
        change_seq: str | None = None,
    ) -> Message:
        partition = int(self.rng.random() * self.options.partitions)
        offset = self._offsets.get((topic, partition), 0)
        self._offsets[(topic, partition)] = offset + 1
        return Message(topic, partition, offset, key, value, at, operation, change_seq)

    def metadata(self) -> list[Message]:
        """One MD message per table version, in start order."""
        versions = sorted(
            (version for table in self.versions.values() for version in table),
            key=lambda version: (version.starts_at, version.table),
        )
        return [
            self._publish(
                self.options.metadata_topic,
                f"{self.options.source_schema}.{version.table.upper()}",
                metadata_value(
                    version, self.options, envelope=self.rng.random() < self.options.envelope
                ),
                version.starts_at,
                "MD",
            )
            for version in versions
        ]

    def baseline(self) -> list[Message]:
        """The full load: one REFRESH message per baseline row, between version 1's start and
        the first change (Kafka timestamps a millisecond apart)."""
        out = []
        moment = self.first_at + timedelta(minutes=1)
        for spec in self.sim.tables:
            rows = sorted(self.sim.baseline[spec.name].items(), key=lambda item: repr(item[0]))
            version = version_in_force(self.versions[spec.name], moment)
            for _, row in rows:
                numbers = self.rng.random() < self.options.numbers_as_json
                everything = set(spec.column_names)
                payload = {
                    "data": _image(
                        spec, version, row, everything, set(), numbers, self._encoding(spec)
                    ),
                    "beforeData": None,
                    "headers": {"operation": "REFRESH"},
                }
                envelope = self.rng.random() < self.options.envelope
                out.append(
                    self._publish(
                        self.options.topic(spec.name),
                        message_key(spec, row),
                        _wrap(payload, "DT", envelope),
                        moment,
                        "REFRESH",
                    )
                )
                moment += timedelta(milliseconds=1)
        return out

    def change(self, change: Change) -> Message:
        """The data message of one change, published now (the next offset of a partition)."""
        options, rng = self.options, self.rng
        spec = self.specs[change.table]
        version = version_in_force(self.versions[change.table], change.commit_time)
        lobs = {column.name for column in version.columns if column.is_lob}
        everything = set(spec.column_names)
        keys = set(spec.key_columns)
        if change.op == "I":
            changed = everything - lobs
        elif change.op == "D":
            changed = keys
        else:
            assert change.before is not None and change.after is not None
            changed = {
                name
                for name, old, new in zip(
                    spec.column_names, change.before, change.after, strict=True
                )
                if old != new
            } - lobs
        present, nulls = everything, set()
        if (
            change.op == "U"
            and rng.random() < options.uncaptured
            and (options.uncaptured_key_updates or not change.is_key_update(spec))
        ):
            assert change.before is not None and change.after is not None
            differing = {
                name
                for name, old, new in zip(
                    spec.column_names, change.before, change.after, strict=True
                )
                if old != new
            }
            present = keys | differing
            nulls = {
                name for name in everything - present if rng.random() < options.uncaptured_as_null
            }
        numbers = rng.random() < options.numbers_as_json
        before, after = change.before, change.after
        if change.op == "D":
            if rng.random() < options.delete_before_data_only:
                data, before_data = (
                    None,
                    _image(spec, version, before, present, nulls, numbers, self._encoding(spec)),
                )
            else:
                data, before_data = (
                    _image(spec, version, before, present, nulls, numbers, self._encoding(spec)),
                    None,
                )
        else:
            data = _image(spec, version, after, present, nulls, numbers, self._encoding(spec))
            before_data = _image(
                spec, version, before, present, nulls, numbers, self._encoding(spec)
            )
            if (
                change.op == "U"
                and not change.is_key_update(spec)
                and rng.random() < options.update_without_before
            ):
                before_data = None
        counter, last = self._place[change.change_seq]
        trim = trims_mask(change.change_number, options.trim)
        column_count = len(version.columns)
        headers: dict[str, object] = {
            "operation": OPERATIONS[change.op],
            "changeSequence": change.change_seq,
            "timestamp": header_time(change.timestamp),
            "streamPosition": change.stream_position,
            "transactionId": change.transaction_id,
            "changeMask": hex_mask(
                version.bits(changed),
                column_count=column_count,
                byte_order=options.byte_order,
                trim=trim,
            ),
            "columnMask": hex_mask(
                version.bits(present),
                column_count=column_count,
                byte_order=options.byte_order,
                trim=trim,
            ),
            "transactionEventCounter": counter,
            "transactionLastEvent": last,
        }
        if rng.random() < options.external_schema_id:
            headers["externalSchemaId"] = version.schema_id
        payload = {"data": data, "beforeData": before_data, "headers": headers}
        return self._publish(
            options.topic(change.table),
            message_key(spec, change.row),
            _wrap(payload, "DT", rng.random() < options.envelope),
            change.commit_time + timedelta(milliseconds=1 + int(rng.random() * 500)),
            OPERATIONS[change.op],
            change.change_seq,
        )

    def changes(self, changes: Iterable[Change]) -> list[Message]:
        return [self.change(change) for change in changes]

    def redeliver(self, message: Message) -> Message:
        """The same record produced again (at-least-once): same value, key and timestamp, the
        next offset of a random partition of its topic."""
        return self.republish(message)

    def republish(
        self, message: Message, *, value: str | None = None, at: datetime | None = None
    ) -> Message:
        """The record produced again at the next offset of a random partition of its topic,
        with another value (a conflicting copy of its change) or at another time (a
        REFRESH row of a reload) when given; else as `redeliver`."""
        return self._publish(
            message.topic,
            message.key,
            message.value if value is None else value,
            message.timestamp if at is None else at,
            message.operation,
            message.change_seq,
        )


# ---------------------------------------------------------------------------------------------
# files


FORMATS = ("parquet", "json")


def json_line(row: Sequence[object]) -> str:
    """One topic record as a JSON Lines line: the value stays the message's JSON text (a
    string), the timestamp 'yyyy-MM-dd HH:mm:ss.ffffff' UTC."""
    record = dict(zip(TOPIC_SCHEMA.names, row, strict=True))
    moment = record["timestamp"]
    assert isinstance(moment, datetime)
    record["timestamp"] = f"{moment.astimezone(UTC):%Y-%m-%d %H:%M:%S.%f}"
    return json.dumps(record, ensure_ascii=False)


def _next_part(folder: Path) -> int:
    numbers = [
        int(match.group(1))
        for path in folder.iterdir()
        if (match := re.match(r"part-(\d+)", path.name)) is not None
    ]
    return max(numbers, default=-1) + 1


def write_topics(
    root: Path,
    messages: Sequence[Message],
    *,
    files: int = 1,
    duplicates: float = 0.0,
    shuffle: bool = True,
    seed: int = 0,
    fmt: str = "parquet",
) -> dict[str, list[Path]]:
    """Land messages as topic files, new part files under `<root>/<topic>/` (existing ones
    kept: a later call is a later batch): Parquet (`TOPIC_SCHEMA`) or JSON Lines (`json_line`).
    Per topic, `duplicates` adds exact copies of some rows (a file landed twice), `shuffle`
    mixes the order, `files` splits (see `qlik_ct.scatter`). Returns the files per topic."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {FORMATS}, got {fmt!r}")
    rng = random.Random(seed)
    by_topic: dict[str, list[tuple[object, ...]]] = {}
    for message in messages:
        by_topic.setdefault(message.topic, []).append(message.row())
    written: dict[str, list[Path]] = {}
    for topic, rows in sorted(by_topic.items()):
        parts = scatter(rows, files=files, duplicates=duplicates, shuffle=shuffle, rng=rng)
        if fmt == "parquet":
            writer = PartWriter(root / topic, TOPIC_SCHEMA)
            for part in parts:
                writer.write_file(part)
            written[topic] = writer.paths
            continue
        folder = root / topic
        folder.mkdir(parents=True, exist_ok=True)
        number = _next_part(folder)
        written[topic] = []
        for part in parts:
            path = folder / f"part-{number:05d}.json"
            path.write_text("".join(json_line(row) + "\n" for row in part), encoding="utf-8")
            written[topic].append(path)
            number += 1
    return written
