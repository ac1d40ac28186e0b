"""What Oracle GoldenGate writes for simulated changes (spec E), from the same table model as the
other emitters: decoded trail records (E1, one row per trail record with the header fields of
seed 004) and GoldenGate for Big Data operation-formatted JSON messages (E2).

Trail records, per change of the model (`Producer.trail`):

* an insert is IOType 5, BeforeAfter A, every column in the after image;
* a delete is IOType 3, BeforeAfter B, the key only in the before image (COMPRESSDELETES), or
  every column (`full_delete_share`);
* an update that keeps the key is FieldComp (IOType 15, A) with the key and the changed columns
  (a same-value update carries the key only), or a full Update (10, A) with every column
  (`full_update_share`); with `before_image_share` it is preceded by its before image (15, B:
  the key and the changed columns' old values, GETUPDATEBEFORES);
* a key update is a unified record (135, A: the whole before row and the after image of the key
  and the changed columns), a GGSPKUpdate (115, A: key-only before image) or a before image
  (15, B) followed by its after image (15, A), in turn.

Columns are named in upper case, as GoldenGate writes them. A record whose string values are
longer than `chunk_size` is written as a chain of chunks: every chunk carries the record's
header (Continued Y but the last, RecCount 1..n), the first chunk the short columns and each
long value's first piece, the next chunks the following pieces. TransInd follows the model's
transactions (0 first, 1 middle, 2 last, 3 only); every record of a logical change (a chain, a
B and A pair) has its transaction's indicator for its place. The trail rolls over to the next
file every `records_per_file` records (the RBA restarts). IOTime is the commit time in
Logdump's layout, the `6` token the transaction id.

JSON messages (`Producer.json`): op_type I, U, D; `before` the whole row before an update
(or only the key and the changed columns, `json_partial_before_share`), the key only before a
delete; `after` the key and the changed columns of an update, the columns left out either
absent or marked `<COLUMN>_isMissing: true`; `pos` the same trail position written as
10 + 10 digits (sequence number, RBA); `current_ts` the formatter's time, different on every
copy. Messages go to three partitions by key hash, so offsets disagree with change order.

The model's baseline (its rows before the first change) is written first as one transaction of
inserts, since GoldenGate has no full load here. `Unit` groups the records of one change, so a
test can deliver a change late or whole.
"""

from __future__ import annotations

import base64
import json
import random
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from cdc_simulator.table_model import UTC, Change, Row, Simulation, TableSpec

TRAIL_FIELDS = (
    "trail_seqno",
    "trail_rba",
    "Hdr-Ind",
    "UndoFlag",
    "RecLength",
    "IOType",
    "TransInd",
    "SyskeyLen",
    "AuditRBA",
    "Continued",
    "Partition",
    "BeforeAfter",
    "IOTime",
    "OrigNode",
    "FormatType",
    "Incomplete",
    "AuditPos",
    "RecCount",
    "table_name",
    "before_image",
    "after_image",
    "tokens",
)
"""The landed fields of a decoded trail record (macros/goldengate/goldengate_trail_fields)."""
MESSAGE_FIELDS = ("topic", "partition", "offset", "key", "value", "timestamp")
INSERT, DELETE, UPDATE, FIELD_COMP, PK_UPDATE, UNIFIED_PK_UPDATE = 5, 3, 10, 15, 115, 135


@dataclass(frozen=True)
class Options:
    """How the simulated Extract and Big Data formatter write."""

    source_schema: str = "SALES"
    first_seqno: int = 7
    records_per_file: int = 60
    chunk_size: int = 0
    """Strings longer than this many characters are written in chunks (0: never)."""
    full_update_share: float = 0.2
    before_image_share: float = 0.2
    full_delete_share: float = 0.2
    json_missing_flag_share: float = 0.5
    json_partial_before_share: float = 0.3
    topic: str = "ogg_topic"
    partitions: int = 3
    binary_encoding: str = "base64"
    """How images write binary values: base64 (GoldenGate's JSON) or hex (as tools that
    decode trails print them)."""

    def table_name(self, spec: TableSpec) -> str:
        """The name GoldenGate writes for a table: SCHEMA.TABLE, upper case."""
        return f"{self.source_schema}.{spec.name}".upper()


@dataclass
class TrailRecord:
    """One decoded trail record: the landed fields (TRAIL_FIELDS) as Python values."""

    seqno: int
    rba: int
    io_type: int
    trans_ind: int
    before_after: str
    io_time: datetime
    table_name: str
    before: dict[str, object] | None
    after: dict[str, object] | None
    tokens: dict[str, str]
    continued: str = "N"
    rec_count: int = 1
    header_indicator: str = "E"
    undo_flag: int = 0

    @property
    def position(self) -> tuple[int, int]:
        return (self.seqno, self.rba)

    @property
    def order_key(self) -> str:
        return f"{self.seqno:010d}{self.rba:020d}"

    def fields(self) -> dict[str, object]:
        def text(image: dict[str, object] | None) -> str | None:
            return None if image is None else json.dumps(image, ensure_ascii=False)

        io_time = self.io_time.astimezone(UTC)
        return {
            "trail_seqno": self.seqno,
            "trail_rba": self.rba,
            "Hdr-Ind": self.header_indicator,
            "UndoFlag": self.undo_flag,
            "RecLength": len(text(self.after) or text(self.before) or ""),
            "IOType": self.io_type,
            "TransInd": self.trans_ind,
            "SyskeyLen": 0,
            "AuditRBA": 9000 + self.seqno,
            "Continued": self.continued,
            "Partition": 12,
            "BeforeAfter": self.before_after,
            "IOTime": f"{io_time:%Y/%m/%d %H:%M:%S}.{io_time.microsecond // 1000:03d}."
            f"{io_time.microsecond % 1000:03d}",
            "OrigNode": 255,
            "FormatType": "R",
            "Incomplete": 0,
            "AuditPos": self.rba * 10,
            "RecCount": self.rec_count,
            "table_name": self.table_name,
            "before_image": text(self.before),
            "after_image": text(self.after),
            "tokens": json.dumps(self.tokens) if self.tokens else None,
        }


@dataclass
class Message:
    """One Big Data JSON operation message as a Kafka sink lands it."""

    topic: str
    partition: int
    offset: int
    key: str
    value: str
    timestamp: datetime
    order_key: str

    def fields(self) -> dict[str, object]:
        return {
            "topic": self.topic,
            "partition": self.partition,
            "offset": self.offset,
            "key": self.key,
            "value": self.value,
            "timestamp": self.timestamp,
        }


@dataclass
class Unit:
    """The records and the message of one change of the model (None: the baseline)."""

    change: Change | None
    records: list[TrailRecord] = field(default_factory=list)
    message: Message | None = None

    @property
    def order_key(self) -> str:
        """The change's position: its last logical record's first chunk (the A of a pair)."""
        firsts = [record for record in self.records if record.rec_count == 1]
        return firsts[-1].order_key


def json_value(
    spec: TableSpec, name: str, value: object, binary_encoding: str = "base64"
) -> object:
    """A model value as GoldenGate's JSON writes it: numbers as numbers (decimals as text, to
    keep their digits), dates and times as text, binary as Base64 (or hex text)."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, datetime):
        moment = value.astimezone(UTC)
        return f"{moment:%Y-%m-%d %H:%M:%S}.{moment.microsecond:06d}"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, bytes):
        if binary_encoding == "hex":
            return value.hex().upper()
        if binary_encoding == "base64":
            return base64.b64encode(value).decode("ascii")
        raise ValueError(f"binary_encoding must be hex or base64, got {binary_encoding!r}")
    raise TypeError(f"{spec.name}.{name}: no JSON form for {value!r}")


def image(
    spec: TableSpec, row: Row, positions: Iterable[int], binary_encoding: str = "base64"
) -> dict[str, object]:
    """The columns at `positions` of `row`, named in upper case, in column order."""
    return {
        spec.columns[i].name.upper(): json_value(
            spec, spec.columns[i].name, row[i], binary_encoding
        )
        for i in sorted(set(positions))
    }


def changed_positions(spec: TableSpec, before: Row, after: Row) -> list[int]:
    return [i for i, (old, new) in enumerate(zip(before, after, strict=True)) if old != new]


class Producer:
    """Writes a simulation as trail records and as JSON messages (one `Unit` per change)."""

    def __init__(
        self, sim: Simulation, options: Options, *, seed: int, stream: bool = False
    ) -> None:
        """`stream`: produce nothing now; `produce()` then yields the units one at a time
        (the same units, in the same order, as `units` holds otherwise), so a caller writing
        millions of records holds only those it has not written yet."""
        self.sim = sim
        self.options = options
        self.rng = random.Random(seed)
        self._seqno = options.first_seqno
        self._rba = 0
        self._in_file = 0
        self._offsets = [0] * options.partitions
        self._key_updates = 0
        self.units: list[Unit] = [] if stream else list(self.produce())

    def _image(self, spec: TableSpec, row: Row, positions: Iterable[int]) -> dict[str, object]:
        return image(spec, row, positions, self.options.binary_encoding)

    # -- trail positions -------------------------------------------------------------------

    def _position(self, size: int) -> tuple[int, int]:
        if self._in_file >= self.options.records_per_file:
            self._seqno, self._rba, self._in_file = self._seqno + 1, 0, 0
        self._rba += 1000 if self._rba == 0 else 0
        position = (self._seqno, self._rba)
        self._rba += 50 + size
        self._in_file += 1
        return position

    # -- the model's changes ---------------------------------------------------------------

    def produce(self) -> Iterator[Unit]:
        """Every unit of the simulation: the baseline's inserts, then each change, in
        commit order (call once: positions and draws continue from the last call)."""
        start = self.sim.changes[0].commit_time if self.sim.changes else datetime.now(UTC)
        baseline_time = start - timedelta(minutes=1)
        baseline: list[tuple[TableSpec, Row]] = [
            (spec, row) for spec in self.sim.tables for row in self.sim.baseline[spec.name].values()
        ]
        for index, (spec, row) in enumerate(baseline):
            indicator = _trans_ind(index, len(baseline))
            unit = Unit(change=None)
            self._write(
                unit,
                spec,
                [(INSERT, "A", None, self._image(spec, row, range(len(spec.columns))))],
                indicator,
                baseline_time,
                "baseline",
            )
            unit.message = self._message(
                spec,
                "I",
                None,
                self._image(spec, row, range(len(spec.columns))),
                row,
                unit,
                baseline_time,
            )
            yield unit
        for transaction in self.sim.transactions():
            records_of = [self._records(change) for change in transaction]
            count = sum(len(records) for records in records_of)
            place = 0
            for change, records in zip(transaction, records_of, strict=True):
                spec = self.sim.spec(change.table)
                unit = Unit(change=change)
                indicators = [_trans_ind(place + i, count) for i in range(len(records))]
                place += len(records)
                for record, indicator in zip(records, indicators, strict=True):
                    self._write(
                        unit,
                        spec,
                        [record],
                        indicator,
                        change.commit_time,
                        change.transaction_id,
                    )
                unit.message = self._json_change(spec, change, unit)
                yield unit

    def _records(
        self, change: Change
    ) -> list[tuple[int, str, dict[str, object] | None, dict[str, object] | None]]:
        """(IOType, BeforeAfter, before image, after image) of each logical record."""
        spec = self.sim.spec(change.table)
        options, rng = self.options, self.rng
        everything = range(len(spec.columns))
        keys = spec.key_positions
        if change.op == "I":
            assert change.after is not None
            return [(INSERT, "A", None, self._image(spec, change.after, everything))]
        if change.op == "D":
            assert change.before is not None
            full = rng.random() < options.full_delete_share
            return [
                (DELETE, "B", self._image(spec, change.before, everything if full else keys), None)
            ]
        assert change.before is not None and change.after is not None
        changed = changed_positions(spec, change.before, change.after)
        after = self._image(spec, change.after, [*keys, *changed])
        if change.is_key_update(spec):
            form = self._key_updates % 3
            self._key_updates += 1
            if form == 0:
                return [
                    (UNIFIED_PK_UPDATE, "A", self._image(spec, change.before, everything), after)
                ]
            if form == 1:
                return [(PK_UPDATE, "A", self._image(spec, change.before, keys), after)]
            before = self._image(spec, change.before, [*keys, *changed])
            return [(FIELD_COMP, "B", before, None), (FIELD_COMP, "A", None, after)]
        if rng.random() < options.full_update_share:
            return [(UPDATE, "A", None, self._image(spec, change.after, everything))]
        records: list[tuple[int, str, dict[str, object] | None, dict[str, object] | None]] = []
        if rng.random() < options.before_image_share:
            records.append(
                (FIELD_COMP, "B", self._image(spec, change.before, [*keys, *changed]), None)
            )
        records.append((FIELD_COMP, "A", None, after))
        return records

    def _write(
        self,
        unit: Unit,
        spec: TableSpec,
        records: Sequence[tuple[int, str, dict[str, object] | None, dict[str, object] | None]],
        indicator: int,
        moment: datetime,
        transaction_id: str,
    ) -> None:
        for io_type, before_after, before, after in records:
            chunks = _chunked(after, self.options.chunk_size) if after else [after]
            for number, piece in enumerate(chunks, start=1):
                first = number == 1
                size = len(json.dumps(piece or before or {}))
                seqno, rba = self._position(size)
                unit.records.append(
                    TrailRecord(
                        seqno=seqno,
                        rba=rba,
                        io_type=io_type,
                        trans_ind=indicator,
                        before_after=before_after,
                        io_time=moment,
                        table_name=self.options.table_name(spec),
                        before=before if first else None,
                        after=piece,
                        tokens={"6": transaction_id},
                        continued="Y" if number < len(chunks) else "N",
                        rec_count=number,
                    )
                )

    # -- JSON ------------------------------------------------------------------------------

    def _json_change(self, spec: TableSpec, change: Change, unit: Unit) -> Message:
        everything = range(len(spec.columns))
        keys = spec.key_positions
        if change.op == "I":
            assert change.after is not None
            return self._message(
                spec,
                "I",
                None,
                self._image(spec, change.after, everything),
                change.after,
                unit,
                change.commit_time,
            )
        if change.op == "D":
            assert change.before is not None
            return self._message(
                spec,
                "D",
                self._image(spec, change.before, keys),
                None,
                change.before,
                unit,
                change.commit_time,
            )
        assert change.before is not None and change.after is not None
        changed = changed_positions(spec, change.before, change.after)
        partial = self.rng.random() < self.options.json_partial_before_share
        before = self._image(spec, change.before, [*keys, *changed] if partial else everything)
        after = self._image(spec, change.after, [*keys, *changed])
        if self.rng.random() < self.options.json_missing_flag_share:
            for i in everything:
                if i not in keys and i not in changed:
                    after[f"{spec.columns[i].name.upper()}_isMissing"] = True
        return self._message(spec, "U", before, after, change.after, unit, change.commit_time)

    def _message(
        self,
        spec: TableSpec,
        op_type: str,
        before: dict[str, object] | None,
        after: dict[str, object] | None,
        row: Row,
        unit: Unit,
        moment: datetime,
    ) -> Message:
        seqno, rba = unit.records[_last_first(unit)].position
        key = json.dumps(
            [
                json_value(
                    spec, name, row[spec.column_names.index(name)], self.options.binary_encoding
                )
                for name in spec.key_columns
            ]
        )
        value = {
            "table": self.options.table_name(spec),
            "op_type": op_type,
            "op_ts": f"{moment.astimezone(UTC):%Y-%m-%d %H:%M:%S.%f}",
            "current_ts": (moment + timedelta(seconds=2))
            .astimezone(UTC)
            .strftime("%Y-%m-%dT%H:%M:%S.%f"),
            "pos": f"{seqno:010d}{rba:010d}",
            "primary_keys": [name.upper() for name in spec.key_columns],
            "tokens": {"6": unit.records[0].tokens.get("6", "")},
            "before": before,
            "after": after,
        }
        partition = zlib.crc32(key.encode()) % self.options.partitions
        offset = self._offsets[partition]
        self._offsets[partition] += 1
        return Message(
            topic=self.options.topic,
            partition=partition,
            offset=offset,
            key=key,
            value=json.dumps(value, ensure_ascii=False),
            timestamp=moment + timedelta(seconds=2),
            order_key=f"{seqno:010d}{rba:020d}",
        )

    def redeliver(self, message: Message) -> Message:
        """The same operation produced again (at-least-once): a new offset, a later
        current_ts; the content GoldenGate replays is the same."""
        value = json.loads(message.value)
        value["current_ts"] = (message.timestamp + timedelta(minutes=5)).strftime(
            "%Y-%m-%dT%H:%M:%S.%f"
        )
        offset = self._offsets[message.partition]
        self._offsets[message.partition] += 1
        return Message(
            topic=message.topic,
            partition=message.partition,
            offset=offset,
            key=message.key,
            value=json.dumps(value, ensure_ascii=False),
            timestamp=message.timestamp + timedelta(minutes=5),
            order_key=message.order_key,
        )


def _trans_ind(place: int, count: int) -> int:
    """TransInd of the record at `place` (0-based) of a transaction of `count` records."""
    if count == 1:
        return 3
    return 0 if place == 0 else 2 if place == count - 1 else 1


def _last_first(unit: Unit) -> int:
    """Index of the unit's last logical record's first chunk (the A record of a pair)."""
    return max(i for i, record in enumerate(unit.records) if record.rec_count == 1)


def _chunked(after: dict[str, object] | None, size: int) -> list[dict[str, object] | None]:
    """An after image as the chunks of a chain: the first holds every short column and each
    long string's first piece, the next ones the following pieces (size > 0)."""
    if after is None or size <= 0:
        return [after]
    long = {
        name: value for name, value in after.items() if isinstance(value, str) and len(value) > size
    }
    if not long:
        return [after]
    pieces = {
        name: [value[i : i + size] for i in range(0, len(value), size)]
        for name, value in long.items()
    }
    count = max(len(parts) for parts in pieces.values())
    chunks: list[dict[str, object] | None] = []
    for number in range(count):
        if number == 0:
            chunk = {
                name: (pieces[name][0] if name in pieces else value)
                for name, value in after.items()
            }
        else:
            chunk = {name: parts[number] for name, parts in pieces.items() if number < len(parts)}
        chunks.append(chunk)
    return chunks


# ---------------------------------------------------------------------------------------------
# landing


def trail_table(records: Sequence[TrailRecord]) -> pa.Table:
    rows = [record.fields() for record in records]
    schema = pa.schema(
        [(name, pa.int64() if name in _INTEGER_FIELDS else pa.string()) for name in TRAIL_FIELDS]
    )
    return pa.Table.from_pylist(rows, schema=schema)


_INTEGER_FIELDS = {
    "trail_seqno",
    "trail_rba",
    "UndoFlag",
    "RecLength",
    "IOType",
    "TransInd",
    "SyskeyLen",
    "AuditRBA",
    "Partition",
    "OrigNode",
    "Incomplete",
    "AuditPos",
    "RecCount",
}


def message_table(messages: Sequence[Message]) -> pa.Table:
    schema = pa.schema(
        [
            ("topic", pa.string()),
            ("partition", pa.int32()),
            ("offset", pa.int64()),
            ("key", pa.string()),
            ("value", pa.string()),
            ("timestamp", pa.timestamp("us", tz="UTC")),
        ]
    )
    return pa.Table.from_pylist([message.fields() for message in messages], schema=schema)


def write_landing(
    folder: Path,
    table: pa.Table,
    *,
    files: int,
    fmt: str = "parquet",
    duplicates: float = 0.0,
    seed: int,
    first_file: int = 0,
) -> list[Path]:
    """Writes `table`'s rows shuffled into `files` files of `folder` (parquet, json = JSON Lines,
    or csv with a header), a share of rows landed twice (in another file). Returns the paths."""
    rng = random.Random(seed)
    rows = table.to_pylist()
    rows += [rows[i] for i in rng.sample(range(len(rows)), int(len(rows) * duplicates))]
    rng.shuffle(rows)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(files):
        part = pa.Table.from_pylist(rows[index::files], schema=table.schema)
        path = folder / f"part-{first_file + index:05d}.{'jsonl' if fmt == 'json' else fmt}"
        if fmt == "parquet":
            pq.write_table(part, path)
        elif fmt == "csv":
            pacsv.write_csv(part, path)
        elif fmt == "json":
            with path.open("w", encoding="utf-8") as out:
                for row in part.to_pylist():
                    out.write(json.dumps(row, default=_json_default, ensure_ascii=False) + "\n")
        else:
            raise ValueError(f"unknown landing format {fmt!r}")
        paths.append(path)
    return paths


def _json_default(value: object) -> object:
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    raise TypeError(f"no JSON form for {value!r}")
