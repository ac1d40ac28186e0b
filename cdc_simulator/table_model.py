"""In-memory model of keyed tables and a seeded generator of the changes applied to them.

This is the test oracle for the change pipeline (spec A.7 state fold, F.5): the generator
applies random operations to Python dicts, records every change with its full before and after
row, and `Simulation.state_at` replays them to answer "the table as it stood after every change
with change_seq <= p". Nothing here knows how a capture product writes changes; `qlik_ct` does.

Operations produced (spec A.4, A.7): inserts, updates of random column subsets (NULLs and
same-value assignments included; an update that changes nothing is not a change and is dropped,
as Replicate drops it, spec A.4), deletes, delete-then-re-insert of one key, key updates (a key
column changes value), transactions of several changes, and several transactions sharing one
commit time (hundredths of a second) with increasing change numbers (spec A.3).

Values are plain Python: int, str, Decimal (scale kept), datetime.date, and datetime.datetime
aware in UTC. A row is a tuple in column order; a key is a tuple in KEY order.
"""

from __future__ import annotations

import random
import re
from bisect import bisect
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from functools import cached_property

UTC = timezone.utc
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
"""The `header__timestamp` placeholder written before a commit time is known (spec A.2)."""

Row = tuple[object, ...]
Key = tuple[object, ...]
State = dict[str, dict[Key, Row]]

_DECIMAL_TYPE = re.compile(r"decimal\((\d+),(\d+)\)")
_SIMPLE_TYPES = ("int32", "int64", "string", "date", "timestamp", "binary")
_SPARK_TYPES = {
    "int32": "int",
    "int64": "bigint",
    "string": "string",
    "date": "date",
    "timestamp": "timestamp",
    "binary": "binary",
}
_INT_RANGES = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
_TIME_POINT = re.compile(r"(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?")


# ---------------------------------------------------------------------------------------------
# table definitions


@dataclass(frozen=True)
class ColumnSpec:
    """One column: `type` is int32, int64, string, decimal(p,s), date, timestamp (UTC) or
    binary (1 to 64 bytes)."""

    name: str
    type: str
    nullable: bool = False
    width: int = 0
    """For a string column: generated values are exactly this many characters (0: words)."""
    hostile: bool = False
    """For a string column: values are what real sources hold and text landings get wrong
    (HOSTILE_TEXTS: quotes, "", newlines, empty strings, separators, 50 K characters); as a
    key, ordinals wrapped in , ; ' + " = \\ < >."""
    extent: bool = False
    """For a string column: an OpenEdge extent (array) field in its SQL text form, 1 to 5
    words joined by ';' (spec D.6)."""

    def __post_init__(self) -> None:
        if self.width < 0 or (self.width and self.type != "string"):
            raise ValueError(f"column {self.name}: width is for string columns, >= 0")
        if self.hostile and (self.type != "string" or self.width):
            raise ValueError(f"column {self.name}: hostile is for string columns without width")
        if self.extent and (self.type != "string" or self.width or self.hostile):
            raise ValueError(f"column {self.name}: extent is for plain string columns")
        if self.type not in _SIMPLE_TYPES and _DECIMAL_TYPE.fullmatch(self.type) is None:
            raise ValueError(f"column {self.name}: unknown type {self.type!r}")
        if self.is_decimal and not 0 <= self.scale <= self.precision <= 38:
            raise ValueError(f"column {self.name}: bad decimal {self.type}")

    @cached_property
    def is_decimal(self) -> bool:
        return self.type.startswith("decimal")

    @cached_property
    def precision(self) -> int:
        match = _DECIMAL_TYPE.fullmatch(self.type)
        return int(match.group(1)) if match else 0

    @cached_property
    def scale(self) -> int:
        match = _DECIMAL_TYPE.fullmatch(self.type)
        return int(match.group(2)) if match else 0

    @property
    def spark_type(self) -> str:
        """The Spark SQL type name (`DataType.simpleString()`) this column reads back as."""
        return self.type if self.is_decimal else _SPARK_TYPES[self.type]


@dataclass(frozen=True)
class TableSpec:
    """A keyed table: columns in physical order, key columns in KEY order (may differ)."""

    name: str
    columns: tuple[ColumnSpec, ...]
    key_columns: tuple[str, ...]

    def __post_init__(self) -> None:
        names = self.column_names
        if len(set(names)) != len(names):
            raise ValueError(f"table {self.name}: duplicate column names")
        if not self.key_columns or len(set(self.key_columns)) != len(self.key_columns):
            raise ValueError(f"table {self.name}: key_columns must be distinct and non-empty")
        for key in self.key_columns:
            if key not in names:
                raise ValueError(f"table {self.name}: key column {key} is not a column")
            if self.column(key).nullable:
                raise ValueError(f"table {self.name}: key column {key} is nullable")

    @cached_property
    def column_names(self) -> tuple[str, ...]:
        return tuple(column.name for column in self.columns)

    @cached_property
    def key_positions(self) -> tuple[int, ...]:
        """Column-order positions of the key columns, in key order."""
        names = self.column_names
        return tuple(names.index(key) for key in self.key_columns)

    @cached_property
    def non_key_positions(self) -> tuple[int, ...]:
        keys = set(self.key_positions)
        return tuple(position for position in range(len(self.columns)) if position not in keys)

    def column(self, name: str) -> ColumnSpec:
        for column in self.columns:
            if column.name == name:
                return column
        raise KeyError(f"table {self.name} has no column {name}")

    def key_of(self, row: Row) -> Key:
        """The key of a row, in key order."""
        return tuple(row[position] for position in self.key_positions)


EMPLOYEES = TableSpec(
    name="employees",
    columns=(
        ColumnSpec("employee_id", "int32"),
        ColumnSpec("first_name", "string"),
        ColumnSpec("last_name", "string"),
        ColumnSpec("salary", "decimal(10,2)"),
        ColumnSpec("hired_on", "date"),
        ColumnSpec("manager_id", "int32", nullable=True),
        ColumnSpec("notes", "string", nullable=True),
    ),
    key_columns=("employee_id",),
)

ORDER_LINES = TableSpec(
    name="order_lines",
    columns=(
        ColumnSpec("line_no", "int32"),
        ColumnSpec("order_id", "int64"),
        ColumnSpec("sku", "string"),
        ColumnSpec("quantity", "int32"),
        ColumnSpec("unit_price", "decimal(12,2)"),
        ColumnSpec("shipped_at", "timestamp", nullable=True),
    ),
    key_columns=("order_id", "line_no"),
)

DEFAULT_TABLES: tuple[TableSpec, ...] = (EMPLOYEES, ORDER_LINES)

# The project's DOCS.DOCUMENTS sample table: text landing at its worst (not in DEFAULT_TABLES:
# the benchmarks and the Parquet proof keep their two tables).
DOCUMENTS = TableSpec(
    name="documents",
    columns=(
        ColumnSpec("doc_code", "string", hostile=True),
        ColumnSpec("title", "string", hostile=True),
        ColumnSpec("body", "string", nullable=True, hostile=True),
        ColumnSpec("attachment", "binary", nullable=True),
        ColumnSpec("revised_at", "timestamp", nullable=True),
    ),
    key_columns=("doc_code",),
)

LONG_TEXT = ("x" * 999 + "\n") * 50
"""50,000 characters over 50 lines."""

HOSTILE_TEXTS = (
    'Q"T',
    '"',
    '""',
    "a,b",
    "line1\nline2",
    "crlf\r\nline",
    "",
    " ",
    "it's",
    "back\\slash\\",
    "; ' + \" = \\ < >",
    "ÄÖÜ ß",
    "tab\there",
    "\\N",
    "NULL",
    ",",
    "\n",
    '"quoted, with comma"',
    LONG_TEXT,
)
"""The tables the dbt project is configured for (dbt_project.yml, var cdc_tables)."""


def widened(tables: Sequence[TableSpec], columns: int, width: int) -> tuple[TableSpec, ...]:
    """The tables with `columns` more nullable string columns each (`attr_01`, ...), whose
    values are `width` characters: wider rows for benchmarks. The dbt project needs no change:
    a change table's data columns are read from its DDL."""
    if columns < 0 or width < 1:
        raise ValueError("columns must be >= 0 and width >= 1")
    extra = tuple(
        ColumnSpec(f"attr_{number:02d}", "string", nullable=True, width=width)
        for number in range(1, columns + 1)
    )
    return tuple(
        TableSpec(name=spec.name, columns=spec.columns + extra, key_columns=spec.key_columns)
        for spec in tables
    )


# ---------------------------------------------------------------------------------------------
# changes


@dataclass(frozen=True, slots=True)
class Change:
    """One captured change (I, U or D) of one row, with full before and after images.

    `change_number` is the number of the I/U/D record; an update's before image consumed
    `change_number - 1` (spec A.3). `commit_time` is the transaction's commit time at
    hundredths of a second, the time part of `change_seq`. `timestamp` is the approximate
    change time (`header__timestamp`), sometimes the 1970-01-01 placeholder (spec A.2).
    """

    table: str
    op: str
    change_seq: str
    """The 35-digit Qlik change sequence: YYYYMMDDHHmmSShh + 19-digit number (spec A.3)."""
    change_number: int
    commit_time: datetime
    transaction_id: str
    before: Row | None
    after: Row | None
    timestamp: datetime
    stream_position: str

    @property
    def row(self) -> Row:
        """The row image a change table carries: after image, or the deleted row for D."""
        image = self.after if self.after is not None else self.before
        assert image is not None
        return image

    def key_before(self, spec: TableSpec) -> Key | None:
        return None if self.before is None else spec.key_of(self.before)

    def key_after(self, spec: TableSpec) -> Key | None:
        return None if self.after is None else spec.key_of(self.after)

    def is_key_update(self, spec: TableSpec) -> bool:
        return self.op == "U" and self.key_before(spec) != self.key_after(spec)

    def changed_positions(self, spec: TableSpec) -> tuple[int, ...]:
        """Column positions whose bit the change mask sets (spec A.4), in column order."""
        if self.op == "I":
            return tuple(range(len(spec.columns)))
        if self.op == "D":
            return tuple(sorted(spec.key_positions))
        assert self.before is not None and self.after is not None
        return tuple(
            position
            for position, (old, new) in enumerate(zip(self.before, self.after, strict=True))
            if old != new
        )


def time_part(moment: datetime) -> str:
    """YYYYMMDDHHmmSShh of a UTC datetime (hundredths truncated)."""
    moment = moment.astimezone(UTC)
    return f"{moment:%Y%m%d%H%M%S}{moment.microsecond // 10_000:02d}"


def parse_time_point(point: datetime | str) -> datetime:
    """A UTC instant from a datetime (naive = UTC) or text 'yyyy-MM-dd HH:mm:ss[.SS...]'."""
    if isinstance(point, datetime):
        return point.replace(tzinfo=UTC) if point.tzinfo is None else point.astimezone(UTC)
    match = _TIME_POINT.fullmatch(point.strip())
    if match is None:
        raise ValueError(f"time point {point!r} is not 'yyyy-MM-dd HH:mm:ss.SS'")
    fraction = (match.group(7) or "").ljust(6, "0")
    year, month, day, hour, minute, second = (int(part) for part in match.groups()[:6])
    return datetime(year, month, day, hour, minute, second, int(fraction), tzinfo=UTC)


def format_time_point(moment: datetime) -> str:
    """'yyyy-MM-dd HH:mm:ss.SS' (hundredths), the text form of a time point."""
    moment = moment.astimezone(UTC)
    return f"{moment:%Y-%m-%d %H:%M:%S}.{moment.microsecond // 10_000:02d}"


def apply_change(state: dict[Key, Row], spec: TableSpec, change: Change, *, strict: bool) -> None:
    """Fold one change into one table's state (spec A.7): I sets, U moves/replaces, D removes.

    strict: the change must fit the state (no insert over a live key, no update or delete of a
    missing one), else AssertionError. Lenient: upsert and ignore missing keys.
    """
    if change.before is not None:
        old_key = spec.key_of(change.before)
        if strict:
            assert old_key in state, f"{change.change_seq}: {change.op} of missing key {old_key}"
            assert state[old_key] == change.before, f"{change.change_seq}: stale before image"
        state.pop(old_key, None)
    if change.after is not None:
        new_key = spec.key_of(change.after)
        if strict:
            assert new_key not in state, f"{change.change_seq}: {change.op} over live {new_key}"
        state[new_key] = change.after


def replay(
    tables: Iterable[TableSpec],
    baseline: Mapping[str, Mapping[Key, Row]],
    changes: Iterable[Change],
    *,
    strict: bool = True,
) -> State:
    """The state after folding `changes` (in the order given) into a copy of `baseline`."""
    specs = {spec.name: spec for spec in tables}
    state: State = {name: dict(baseline.get(name, {})) for name in specs}
    for change in changes:
        apply_change(state[change.table], specs[change.table], change, strict=strict)
    return state


# ---------------------------------------------------------------------------------------------
# the generator


@dataclass(frozen=True)
class OperationMix:
    """Relative weights of the operations the generator draws, and their shapes."""

    insert: float = 0.2
    update: float = 0.48
    delete: float = 0.14
    key_update: float = 0.08
    delete_reinsert: float = 0.1
    same_value: float = 0.2
    """Chance that an updated column is assigned the value it already has."""
    null: float = 0.25
    """Chance that a nullable column is NULL in a new row, or set to NULL by an update."""
    reinsert_later: float = 0.5
    """Chance that a delete_reinsert re-inserts in a later transaction, not the same one."""
    same_commit_time: float = 0.25
    """Chance that a transaction has the same commit time (hundredths) as the previous one."""
    transaction_sizes: tuple[tuple[int, int], ...] = ((1, 55), (2, 20), (3, 12), (5, 8), (8, 5))
    """(changes, weight): transactions of several changes."""
    placeholder_timestamp: float = 0.03
    """Chance that header__timestamp is the 1970-01-01 placeholder."""
    number_gap: float = 0.1
    """Chance of a gap in change numbers before a transaction (changes of other tables)."""


class _KeySet:
    """A set with O(1) add, remove and uniform random choice."""

    __slots__ = ("index", "items")

    def __init__(self, items: Iterable[Key] = ()) -> None:
        self.items: list[Key] = []
        self.index: dict[Key, int] = {}
        for item in items:
            self.add(item)

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, item: object) -> bool:
        return item in self.index

    def add(self, item: Key) -> None:
        if item not in self.index:
            self.index[item] = len(self.items)
            self.items.append(item)

    def remove(self, item: Key) -> None:
        position = self.index.pop(item)
        last = self.items.pop()
        if position < len(self.items):
            self.items[position] = last
            self.index[last] = position

    def choice(self, rng: random.Random) -> Key:
        return self.items[int(rng.random() * len(self.items))]


_WORDS = (
    "Ann", "Bob", "Chloé", "Dmitri", "Eve", "François", "Günter", "Hana", "Inès", "José",
    "Kenji", "Lena", "Mía", "Noor", "Olaf", "Priya", "Quentin", "Rosa", "Søren", "Tariq",
    "Ugo", "Vera", "Wei", "Xavier", "Yuki", "Zoë", "O'Neil", "van der Berg", "Łukasz", "北京",
)  # fmt: skip
_ALPHABET = "abcdefghijklmnopqrstuvwxyz" * 40
_NOTES = ("on leave", "part time, remote", "relocated", "contractor", "ÄÖÜ ß", "see HR-1042")
_LINES_PER_GROUP = 4
_MIN_DATE = date(1950, 1, 1)
_MIN_TIMESTAMP = datetime(2000, 1, 1, tzinfo=UTC)


class _TableState:
    """The live rows of one table plus its key pool (live keys and free keys)."""

    def __init__(self, spec: TableSpec, pool: list[Key]) -> None:
        self.spec = spec
        self.pool = pool
        self.ordinal = {key: position for position, key in enumerate(pool)}
        self.rows: dict[Key, Row] = {}
        self.live = _KeySet()
        self.free = _KeySet(pool)
        self.reinsert_later: list[Key] = []


class ChangeGenerator:
    """Seeded random changes over several tables, streamed one transaction at a time.

    `keys` is the size of each table's key pool; the baseline (the "full load", the state
    before the first change) holds half of it. Change numbers are global to the task (all
    tables), start at `first_change_number` and advance by 1 per I/D and by 2 per update.
    """

    def __init__(
        self,
        tables: Sequence[TableSpec] = DEFAULT_TABLES,
        *,
        seed: int,
        keys: int = 50,
        start: datetime = datetime(2024, 3, 1, 12, 0, tzinfo=UTC),
        first_change_number: int | None = None,
        mix: OperationMix | None = None,
    ) -> None:
        if keys < 2:
            raise ValueError("keys must be at least 2")
        self.tables = tuple(tables)
        self.mix = mix or OperationMix()
        self.rng = random.Random(seed)
        rng = self.rng
        self._states = {spec.name: _TableState(spec, _key_pool(spec, keys)) for spec in tables}
        for table in self._states.values():
            for key in rng.sample(table.pool, keys // 2):
                self._put(table, _random_row(rng, table.spec, key, self.mix.null))
        self.baseline: State = {name: dict(table.rows) for name, table in self._states.items()}
        self.commit_time = start.astimezone(UTC).replace(
            microsecond=start.microsecond // 10_000 * 10_000
        )
        self.change_number = (
            first_change_number if first_change_number is not None else rng.randrange(10**6, 10**12)
        ) - 1
        self._lsn = rng.randrange(2**32, 2**40)
        self.stats: Counter[str] = Counter()
        mix = self.mix
        self._time_part = time_part(self.commit_time)
        self._ops = ("insert", "update", "delete", "key_update", "delete_reinsert")
        self._op_weights = _cumulative(
            (mix.insert, mix.update, mix.delete, mix.key_update, mix.delete_reinsert)
        )
        self._sizes = tuple(size for size, _ in mix.transaction_sizes)
        self._size_weights = _cumulative(weight for _, weight in mix.transaction_sizes)

    # -- state ---------------------------------------------------------------------------------

    def state(self) -> State:
        """A copy of the live state now (after every change generated so far)."""
        return {name: dict(table.rows) for name, table in self._states.items()}

    def _put(self, table: _TableState, row: Row) -> None:
        key = table.spec.key_of(row)
        table.rows[key] = row
        table.free.remove(key)
        table.live.add(key)

    def _drop(self, table: _TableState, key: Key) -> Row:
        row = table.rows.pop(key)
        table.live.remove(key)
        table.free.add(key)
        return row

    # -- generation ----------------------------------------------------------------------------

    def changes(self, count: int) -> Iterator[Change]:
        """Exactly `count` more changes, in change_seq order, whole transactions at a time
        except possibly the last one."""
        emitted = 0
        while emitted < count:
            transaction = self._transaction(count - emitted)
            emitted += len(transaction)
            yield from transaction

    def transactions(self, count: int) -> Iterator[list[Change]]:
        """Like `changes`, grouped by transaction."""
        emitted = 0
        while emitted < count:
            transaction = self._transaction(count - emitted)
            emitted += len(transaction)
            if transaction:
                yield transaction

    def _transaction(self, budget: int) -> list[Change]:
        rng, mix = self.rng, self.mix
        if rng.random() >= mix.same_commit_time:
            hundredths = rng.randint(1, 300) if rng.random() < 0.97 else rng.randint(300, 90_000)
            self.commit_time += timedelta(microseconds=hundredths * 10_000)
            self._time_part = time_part(self.commit_time)
        else:
            self.stats["shared_commit_time"] += 1
        if rng.random() < mix.number_gap:
            self.change_number += rng.randint(1, 5)
        transaction_id = f"{rng.getrandbits(128):032X}"
        size = min(budget, self._sizes[_draw(rng, self._size_weights)])
        out: list[Change] = []
        while len(out) < size:
            self._operation(out, size - len(out), transaction_id)
        if len(out) > 1:
            self.stats["multi_change_transactions"] += 1
        return out

    def _operation(self, out: list[Change], budget: int, transaction_id: str) -> None:
        rng = self.rng
        table = self._states[self.tables[int(rng.random() * len(self.tables))].name]
        op = self._ops[_draw(rng, self._op_weights)]
        # Mean reversion: a table fuller than half its key pool leans to deletes, and back.
        fill = len(table.live) / len(table.pool)
        if op == "insert" and rng.random() < fill - 0.5:
            op = "delete"
        elif op in ("delete", "delete_reinsert") and rng.random() < 0.5 - fill:
            op = "insert"
        if op == "delete_reinsert" and budget < 2:
            op = "delete"
        if op == "insert" and not table.free:
            op = "update"
        if op == "key_update" and not table.free:
            op = "update"
        if op != "insert" and not table.live:
            op = "insert"
        if op == "insert":
            key = self._insert_key(table)
            row = _random_row(rng, table.spec, key, self.mix.null)
            self._put(table, row)
            out.append(self._change(table, "I", None, row, 1, transaction_id))
        elif op == "update":
            key = table.live.choice(rng)
            before = table.rows[key]
            after = self._updated(table.spec, before)
            if after == before:
                self.stats["noop_updates_dropped"] += 1
                return
            table.rows[key] = after
            out.append(self._change(table, "U", before, after, 2, transaction_id))
        elif op == "key_update":
            old_key = table.live.choice(rng)
            new_key = self._free_key_near(table, old_key)
            before = self._drop(table, old_key)
            after = _with_key(table.spec, before, new_key)
            if rng.random() < 0.4:
                after = self._updated(table.spec, after)
            self._put(table, after)
            self.stats["key_updates"] += 1
            out.append(self._change(table, "U", before, after, 2, transaction_id))
        else:
            key = table.live.choice(rng)
            before = self._drop(table, key)
            out.append(self._change(table, "D", before, None, 1, transaction_id))
            if op == "delete_reinsert":
                if rng.random() < self.mix.reinsert_later:
                    table.reinsert_later.append(key)
                else:
                    row = _random_row(rng, table.spec, key, self.mix.null)
                    self._put(table, row)
                    self.stats["reinserts_same_transaction"] += 1
                    out.append(self._change(table, "I", None, row, 1, transaction_id))

    def _insert_key(self, table: _TableState) -> Key:
        while table.reinsert_later:
            key = table.reinsert_later.pop()
            if key in table.free:
                self.stats["reinserts_later"] += 1
                return key
        return table.free.choice(self.rng)

    def _free_key_near(self, table: _TableState, key: Key) -> Key:
        """A free key; for a composite key, preferably one changing only the last key column."""
        if len(key) > 1 and self.rng.random() < 0.6:
            group = table.ordinal[key] // _LINES_PER_GROUP * _LINES_PER_GROUP
            near = [
                table.pool[ordinal]
                for ordinal in range(group, min(group + _LINES_PER_GROUP, len(table.pool)))
                if table.pool[ordinal] in table.free
            ]
            if near:
                return near[int(self.rng.random() * len(near))]
        return table.free.choice(self.rng)

    def _updated(self, spec: TableSpec, before: Row) -> Row:
        """`before` with a random non-empty subset of its non-key columns reassigned."""
        rng, mix = self.rng, self.mix
        candidates = spec.non_key_positions
        chosen = rng.sample(candidates, rng.randint(1, len(candidates)))
        after = list(before)
        for position in chosen:
            column = spec.columns[position]
            draw = rng.random()
            if draw < mix.same_value:
                self.stats["same_value_assignments"] += 1
            elif column.nullable and draw < mix.same_value + mix.null:
                after[position] = None
            else:
                after[position] = _random_value(rng, column)
        return tuple(after)

    def _change(
        self,
        table: _TableState,
        op: str,
        before: Row | None,
        after: Row | None,
        numbers: int,
        transaction_id: str,
    ) -> Change:
        rng = self.rng
        self.change_number += numbers
        self._lsn += 1 + int(rng.random() * 4096)
        if rng.random() < self.mix.placeholder_timestamp:
            timestamp = EPOCH
        else:
            timestamp = self.commit_time - timedelta(microseconds=int(rng.random() * 2_000_000))
        self.stats[op] += 1
        return Change(
            table=table.spec.name,
            op=op,
            change_seq=f"{self._time_part}{self.change_number:019d}",
            change_number=self.change_number,
            commit_time=self.commit_time,
            transaction_id=transaction_id,
            before=before,
            after=after,
            timestamp=timestamp,
            stream_position=f"{self._lsn >> 32:08X}/{self._lsn & 0xFFFFFFFF:08X}",
        )


def _cumulative(weights: Iterable[float]) -> tuple[float, ...]:
    total, out = 0.0, []
    for weight in weights:
        total += weight
        out.append(total)
    return tuple(out)


def _draw(rng: random.Random, cumulative: tuple[float, ...]) -> int:
    """An index drawn with the weights behind `cumulative` (as random.choices, but faster)."""
    return min(bisect(cumulative, rng.random() * cumulative[-1]), len(cumulative) - 1)


def _key_pool(spec: TableSpec, size: int) -> list[Key]:
    """`size` distinct keys; a composite key's last column cycles 1..4 within a group."""
    pool = []
    for ordinal in range(size):
        if len(spec.key_columns) == 1:
            parts = [100 + ordinal]
        else:
            group, line = divmod(ordinal, _LINES_PER_GROUP)
            parts = [group] * (len(spec.key_columns) - 1) + [line + 1]
        pool.append(
            tuple(
                _key_value(spec.column(name), part)
                for name, part in zip(spec.key_columns, parts, strict=True)
            )
        )
    return pool


def _key_value(column: ColumnSpec, ordinal: int) -> object:
    if column.type == "int32":
        return ordinal
    if column.type == "int64":
        return 5_000_000_000 + ordinal
    if column.type == "string" and column.hostile:
        return f"K{ordinal:04d}, ;'+\"=\\<>"[: 6 + ordinal % 11]
    if column.type == "string":
        return f"K{ordinal:08d}"
    if column.type == "binary":
        return ordinal.to_bytes(4, "big")
    if column.type == "date":
        return _MIN_DATE + timedelta(days=ordinal)
    if column.type == "timestamp":
        return _MIN_TIMESTAMP + timedelta(seconds=ordinal)
    return Decimal(ordinal).scaleb(-column.scale)


def _with_key(spec: TableSpec, row: Row, key: Key) -> Row:
    values = list(row)
    for position, value in zip(spec.key_positions, key, strict=True):
        values[position] = value
    return tuple(values)


def _random_row(rng: random.Random, spec: TableSpec, key: Key, null: float) -> Row:
    values: list[object] = []
    for column in spec.columns:
        if column.nullable and rng.random() < null:
            values.append(None)
        else:
            values.append(_random_value(rng, column))
    return _with_key(spec, tuple(values), key)


def _random_value(rng: random.Random, column: ColumnSpec) -> object:
    """A value of the column's type: mostly ordinary, sometimes at the edges of the type."""
    kind = column.type
    edge = rng.random() < 0.03
    if kind in _INT_RANGES:
        low, high = _INT_RANGES[kind]
        if edge:
            return rng.choice((low, high, 0, -1))
        return int(rng.random() * 5000) if rng.random() < 0.9 else rng.randint(-5000, 10**6)
    if kind == "binary":
        return rng.randbytes(1 + int(rng.random() * 64))
    if kind == "string" and column.extent:
        count = 1 + int(rng.random() * 5)
        return ";".join(_WORDS[int(rng.random() * len(_WORDS))] for _ in range(count))
    if kind == "string" and column.hostile and rng.random() < 0.6:
        # the 50 K text is rare: it is big
        pool = HOSTILE_TEXTS if rng.random() < 0.03 else HOSTILE_TEXTS[:-1]
        return pool[int(rng.random() * len(pool))]
    if kind == "string" and column.width:
        text = f"{int(rng.random() * 10**9):09d}{_ALPHABET[int(rng.random() * 26) :]}"
        return text[: column.width].ljust(column.width, "x")
    if kind == "string":
        if rng.random() < 0.15:
            return _NOTES[int(rng.random() * len(_NOTES))]
        word = _WORDS[int(rng.random() * len(_WORDS))]
        return word if rng.random() < 0.5 else f"{word}-{int(rng.random() * 1000)}"
    if kind == "date":
        if edge:
            return rng.choice((date(1970, 1, 1), date(1900, 1, 1), date(2099, 12, 31)))
        return _MIN_DATE + timedelta(days=int(rng.random() * 30_000))
    if kind == "timestamp":
        if edge:
            return rng.choice((EPOCH, datetime(2038, 1, 19, 3, 14, 8, tzinfo=UTC)))
        return _MIN_TIMESTAMP + timedelta(microseconds=int(rng.random() * 10**15))
    limit = 10**column.precision - 1
    if edge:
        unscaled = rng.choice((limit, -limit, 0, 1))
    else:
        unscaled = int(rng.random() * min(limit, 10 ** (column.scale + 6)))
    return Decimal(unscaled).scaleb(-column.scale)


# ---------------------------------------------------------------------------------------------
# a finished simulation, queryable at any point


@dataclass
class Simulation:
    """A finished run: the baseline, every change in change_seq order, the final live state."""

    tables: tuple[TableSpec, ...]
    baseline: State
    changes: list[Change]
    final: State
    stats: Counter[str] = field(default_factory=Counter)

    def spec(self, name: str) -> TableSpec:
        for spec in self.tables:
            if spec.name == name:
                return spec
        raise KeyError(f"no table {name}")

    def state_with(self, include: Callable[[Change], bool], *, strict: bool = True) -> State:
        """The state after the changes for which `include` is true, folded in change order."""
        return replay(self.tables, self.baseline, filter(include, self.changes), strict=strict)

    def state_at(self, change_seq: str | int | None = None) -> State:
        """Every table after every change with change_seq <= `change_seq`.

        `change_seq` is a 35-digit change sequence, a change number, or None / 'latest' for
        the final state. A B/U pair shares one change_seq, so an update is in or out whole.
        """
        if change_seq is None or change_seq == "latest":
            return self.state_with(lambda change: True)
        if isinstance(change_seq, int):
            number = change_seq
            return self.state_with(lambda change: change.change_number <= number)
        if len(change_seq) != 35 or not change_seq.isdigit():
            raise ValueError(f"change_seq {change_seq!r} is not 35 digits")
        return self.state_with(lambda change: change.change_seq <= change_seq)

    def state_at_time(self, point: datetime | str) -> State:
        """Every table after every change whose change_seq time part <= `point` (UTC)."""
        moment = parse_time_point(point)
        return self.state_with(lambda change: change.commit_time <= moment)

    def transactions(self) -> list[list[Change]]:
        """The changes grouped by transaction, in order."""
        groups: list[list[Change]] = []
        for change in self.changes:
            if groups and groups[-1][0].transaction_id == change.transaction_id:
                groups[-1].append(change)
            else:
                groups.append([change])
        return groups


def simulate(
    changes: int,
    *,
    keys: int = 50,
    seed: int,
    tables: Sequence[TableSpec] = DEFAULT_TABLES,
    **options: object,
) -> Simulation:
    """Generate `changes` changes in memory (options go to `ChangeGenerator`)."""
    generator = ChangeGenerator(tables, seed=seed, keys=keys, **options)  # type: ignore[arg-type]
    produced = list(generator.changes(changes))
    return Simulation(
        tables=tuple(tables),
        baseline=generator.baseline,
        changes=produced,
        final=generator.state(),
        stats=generator.stats,
    )
