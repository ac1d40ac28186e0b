"""What Qlik Replicate lands for simulated changes: change tables and full-load tables (spec A).

Change-table layout (spec A.2): seven header columns, then the data columns.

    header__change_seq       string, 35 digits: commit time YYYYMMDDHHmmSShh + 19-digit number
    header__change_oper      I, U, D or B
    header__change_mask      binary, little-endian; bit N = change-table column ordinal N
                             (headers counted first, so the first data column is bit 7)
    header__stream_position  opaque string
    header__operation        INSERT, UPDATE, DELETE or BEFOREIMAGE
    header__transaction_id   32 uppercase hex characters
    header__timestamp        UTC timestamp, sometimes the 1970-01-01 placeholder

Rules (seed S0, spec A.3-A.5): an insert's mask has every data column's bit; an update is a
B row (before image, empty mask) and a U row (after image, mask = columns whose value differs)
sharing the U's change_seq, the B having consumed the previous change number; an update that
changes nothing is not written; a delete carries the deleted row with key bits only; a key
update is a U with its key bits set whose B carries the old key. Trailing zero bytes of a mask
may be dropped: `trim` chooses always, never, or per change ("random", deterministic).

The full-load ("baseline") table has the data columns only, holding the state before the
first change. Files go to `<root>/<table>__ct/part-NNNNN.<ext>` and `<root>/<table>/...`;
writing again appends new part files, as a landing zone receives later batches.

CLI (also used for benchmarks; streams, so memory stays flat at millions of changes):

    python -m cdc_simulator.qlik_ct --out DIR --changes N --keys K --seed S [--format csv]
        [--extra-columns C --extra-width W] [--append-out DIR2 --append-changes M]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import TextIO

import pyarrow as pa
import pyarrow.parquet as pq

from cdc_simulator.table_model import (
    DEFAULT_TABLES,
    UTC,
    Change,
    ChangeGenerator,
    ColumnSpec,
    Key,
    Row,
    TableSpec,
    widened,
)

HEADER_COLUMNS = (
    "header__change_seq",
    "header__change_oper",
    "header__change_mask",
    "header__stream_position",
    "header__operation",
    "header__transaction_id",
    "header__timestamp",
)
HEADER_COUNT = len(HEADER_COLUMNS)
OPERATIONS = {"I": "INSERT", "U": "UPDATE", "D": "DELETE", "B": "BEFOREIMAGE"}
TRIM_POLICIES = ("random", "always", "never")
FORMATS = ("parquet", "csv")
CHANGE_TABLE_SUFFIX = "__ct"
ROW_GROUP_SIZE = 100_000

CtRow = tuple[object, ...]
"""One change-table row: the seven header values, then the data values in column order."""

_PART = re.compile(r"part-(\d+)")
_HEADER_TYPES = (
    pa.string(),
    pa.string(),
    pa.binary(),
    pa.string(),
    pa.string(),
    pa.string(),
    pa.timestamp("us", tz="UTC"),
)


# ---------------------------------------------------------------------------------------------
# masks and rows


def encode_mask(positions: Iterable[int], *, trim: bool, length: int) -> bytes:
    """Little-endian mask with these bits; `length` bytes, or trailing zeros dropped if trim.

    Written from seed 000 on purpose rather than imported from python_udfs: the simulator is
    the independent side of the proof, so it shares no code with what it checks.
    """
    bits = 0
    for position in positions:
        bits |= 1 << position
    size = (bits.bit_length() + 7) // 8 if trim else length
    return bits.to_bytes(size, byteorder="little")


def mask_length(spec: TableSpec) -> int:
    """Bytes of an untrimmed mask: one bit per change-table column, headers included."""
    return (HEADER_COUNT + len(spec.columns) + 7) // 8


def ct_column_names(spec: TableSpec) -> tuple[str, ...]:
    """The change table's columns in physical order: headers, then data columns."""
    return HEADER_COLUMNS + spec.column_names


def change_table_name(spec: TableSpec) -> str:
    return spec.name + CHANGE_TABLE_SUFFIX


def trims_mask(change_number: int, policy: str) -> bool:
    """Whether this change's mask drops its trailing zero bytes under `policy`."""
    if policy == "always":
        return True
    if policy == "never":
        return False
    if policy != "random":
        raise ValueError(f"trim policy must be one of {TRIM_POLICIES}, got {policy!r}")
    return bool((change_number * 0x9E3779B97F4A7C15) >> 40 & 1)


def change_rows(change: Change, spec: TableSpec, *, trim: str = "random") -> list[CtRow]:
    """The change-table rows Replicate writes for one change: [I], [B, U] or [D]."""
    seq = change.change_seq
    positions = [HEADER_COUNT + position for position in change.changed_positions(spec)]
    mask = encode_mask(
        positions, trim=trims_mask(change.change_number, trim), length=mask_length(spec)
    )
    stream_position, transaction, timestamp = (
        change.stream_position,
        change.transaction_id,
        change.timestamp,
    )
    out: list[CtRow] = []
    if change.op == "U":
        if not positions:
            raise ValueError(f"{seq}: an update that changes nothing is not written")
        assert change.before is not None
        before = (seq, "B", b"", stream_position, "BEFOREIMAGE", transaction, timestamp)
        out.append(before + change.before)
    header = (seq, change.op, mask, stream_position, OPERATIONS[change.op], transaction, timestamp)
    out.append(header + change.row)
    return out


def emit(
    changes: Iterable[Change],
    tables: Sequence[TableSpec] = DEFAULT_TABLES,
    *,
    trim: str = "random",
) -> dict[str, list[CtRow]]:
    """Change-table rows per table name, in change order (B before its U)."""
    specs = {spec.name: spec for spec in tables}
    rows: dict[str, list[CtRow]] = {name: [] for name in specs}
    for change in changes:
        rows[change.table].extend(change_rows(change, specs[change.table], trim=trim))
    return rows


def baseline_rows(baseline: Mapping[Key, Row], *, seed: int = 0) -> list[Row]:
    """A full-load table's rows, in a seeded arbitrary order (a table has no row order)."""
    rows = list(baseline.values())
    random.Random(seed).shuffle(rows)
    return rows


def scatter(
    rows: Sequence[CtRow],
    *,
    files: int = 1,
    duplicates: float = 0.0,
    shuffle: bool = True,
    rng: random.Random,
) -> list[list[CtRow]]:
    """Rows as a landing zone may receive them: exact duplicates of a `duplicates` fraction
    added, order shuffled (out-of-order arrival), split over `files` files (never fewer than 1).
    """
    delivered = list(rows)
    if duplicates > 0 and rows:
        count = max(1, round(len(rows) * duplicates))
        delivered.extend(rows[int(rng.random() * len(rows))] for _ in range(count))
    if shuffle:
        rng.shuffle(delivered)
    files = max(1, min(files, len(delivered)))
    size, extra = divmod(len(delivered), files)
    parts, start = [], 0
    for part in range(files):
        end = start + size + (1 if part < extra else 0)
        parts.append(delivered[start:end])
        start = end
    return parts


# ---------------------------------------------------------------------------------------------
# Arrow and files


def arrow_type(column: ColumnSpec) -> pa.DataType:
    """The Parquet/Arrow type Replicate's file target would use for a column."""
    if column.is_decimal:
        return pa.decimal128(column.precision, column.scale)
    return {
        "int32": pa.int32(),
        "int64": pa.int64(),
        "string": pa.string(),
        "date": pa.date32(),
        "timestamp": pa.timestamp("us", tz="UTC"),
        "binary": pa.binary(),
    }[column.type]


def ct_schema(spec: TableSpec) -> pa.Schema:
    data = [pa.field(column.name, arrow_type(column)) for column in spec.columns]
    headers = [
        pa.field(name, kind) for name, kind in zip(HEADER_COLUMNS, _HEADER_TYPES, strict=True)
    ]
    return pa.schema(headers + data)


def baseline_schema(spec: TableSpec) -> pa.Schema:
    return pa.schema([pa.field(column.name, arrow_type(column)) for column in spec.columns])


def to_arrow(schema: pa.Schema, rows: Sequence[Sequence[object]]) -> pa.Table:
    """Rows (tuples in schema order) as an Arrow table, converted column by column."""
    if not rows:
        return schema.empty_table()
    columns = list(zip(*rows, strict=True))
    arrays = [
        pa.array(values, type=field.type) for values, field in zip(columns, schema, strict=True)
    ]
    return pa.Table.from_arrays(arrays, schema=schema)


def csv_field(value: object) -> str:
    """One CSV field as Replicate's file target writes it (RFC 4180): NULL is an empty field;
    a value that is empty or holds a comma, a quote or a line break is quoted, its quotes
    doubled; so an empty string ("") and NULL stay apart. An empty mask (a before-image's)
    is an empty field."""
    if value is None or value == b"":
        return ""
    text = value_text(value)
    if text == "" or any(character in text for character in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


def value_text(value: object) -> str:
    """A value as text, as the vendors' text outputs write it: NULL empty, bytes (masks,
    binary columns) uppercase hex, times UTC 'yyyy-MM-dd HH:mm:ss.ffffff', dates ISO,
    decimals in plain notation."""
    if value is None:
        return ""
    if isinstance(value, bytes):
        return value.hex().upper()
    if isinstance(value, datetime):
        return f"{value.astimezone(UTC):%Y-%m-%d %H:%M:%S.%f}"
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return format(value, "f")
    return str(value)


class PartWriter:
    """Numbered part files in one folder, numbering after the parts already there (append)."""

    def __init__(
        self,
        folder: Path,
        schema: pa.Schema,
        *,
        fmt: str = "parquet",
        row_group_size: int = ROW_GROUP_SIZE,
    ) -> None:
        if fmt not in FORMATS:
            raise ValueError(f"format must be one of {FORMATS}, got {fmt!r}")
        self.folder = folder
        self.schema = schema
        self.fmt = fmt
        self.row_group_size = row_group_size
        self.paths: list[Path] = []
        self.rows_in_file = 0
        self._parquet: pq.ParquetWriter | None = None
        self._csv_file: TextIO | None = None
        folder.mkdir(parents=True, exist_ok=True)
        numbers = [
            int(match.group(1))
            for path in folder.iterdir()
            if (match := _PART.match(path.name)) is not None
        ]
        self._next = max(numbers, default=-1) + 1

    def open_file(self) -> Path:
        self.close_file()
        path = self.folder / f"part-{self._next:05d}.{self.fmt}"
        self._next += 1
        if self.fmt == "parquet":
            self._parquet = pq.ParquetWriter(path, self.schema)
        else:
            self._csv_file = path.open("w", newline="", encoding="utf-8")
            self._csv_file.write(",".join(csv_field(name) for name in self.schema.names) + "\n")
        self.paths.append(path)
        self.rows_in_file = 0
        return path

    def write(self, rows: Sequence[Sequence[object]]) -> None:
        """Append rows to the open file (opening one if needed), in row groups."""
        if self._parquet is None and self._csv_file is None:
            self.open_file()
        for start in range(0, max(len(rows), 1), self.row_group_size):
            chunk = rows[start : start + self.row_group_size]
            if self._parquet is not None:
                self._parquet.write_table(to_arrow(self.schema, chunk))
            elif self._csv_file is not None:
                self._csv_file.writelines(
                    ",".join(csv_field(value) for value in row) + "\n" for row in chunk
                )
        self.rows_in_file += len(rows)

    def write_file(self, rows: Sequence[Sequence[object]]) -> Path:
        """One whole new file holding `rows` (an empty file still carries the schema)."""
        path = self.open_file()
        self.write(rows)
        self.close_file()
        return path

    def close_file(self) -> None:
        if self._parquet is not None:
            self._parquet.close()
            self._parquet = None
        if self._csv_file is not None:
            self._csv_file.close()
            self._csv_file = None


def write_landing(
    root: Path,
    ct_rows: Mapping[str, Sequence[CtRow]],
    baseline: Mapping[str, Mapping[Key, Row]] | None = None,
    *,
    tables: Sequence[TableSpec] = DEFAULT_TABLES,
    fmt: str = "parquet",
    files: int = 1,
    duplicates: float = 0.0,
    shuffle: bool = False,
    seed: int = 0,
    row_group_size: int = ROW_GROUP_SIZE,
) -> dict[str, list[Path]]:
    """Land one batch: each table's change rows as new part files under `<root>/<table>__ct/`
    (see `scatter` for files/duplicates/shuffle) and, if given, the baseline under
    `<root>/<table>/`. Existing part files are kept: a second call appends a later batch.
    Returns the files written per folder name.
    """
    rng = random.Random(seed)
    written: dict[str, list[Path]] = {}
    for spec in tables:
        name = change_table_name(spec)
        writer = PartWriter(root / name, ct_schema(spec), fmt=fmt, row_group_size=row_group_size)
        rows = ct_rows.get(spec.name, ())
        for part in scatter(rows, files=files, duplicates=duplicates, shuffle=shuffle, rng=rng):
            writer.write_file(part)
        written[name] = writer.paths
        if baseline is not None:
            writer = PartWriter(
                root / spec.name, baseline_schema(spec), fmt=fmt, row_group_size=row_group_size
            )
            writer.write_file(baseline_rows(baseline.get(spec.name, {}), seed=seed))
            written[spec.name] = writer.paths
    return written


def write_parquet(
    root: Path,
    ct_rows: Mapping[str, Sequence[CtRow]],
    baseline: Mapping[str, Mapping[Key, Row]] | None = None,
    **options: object,
) -> dict[str, list[Path]]:
    """`write_landing` in Parquet: int32, int64, string, decimal128, date32, timestamp[us, UTC]
    and binary masks, which Spark reads as int, bigint, string, decimal, date, timestamp."""
    return write_landing(root, ct_rows, baseline, fmt="parquet", **options)  # type: ignore[arg-type]


def write_csv(
    root: Path,
    ct_rows: Mapping[str, Sequence[CtRow]],
    baseline: Mapping[str, Mapping[Key, Row]] | None = None,
    **options: object,
) -> dict[str, list[Path]]:
    """`write_landing` in CSV as Replicate's file target writes it (`csv_field`): a header row,
    RFC 4180 quoting, NULL an empty field and "" an empty string, bytes (masks, binary
    columns) as uppercase hex text, timestamps as 'yyyy-MM-dd HH:mm:ss.ffffff' UTC, dates
    ISO, decimals in plain notation."""
    return write_landing(root, ct_rows, baseline, fmt="csv", **options)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# streaming generation (CLI, benchmarks)


def generate_landing(
    root: Path,
    *,
    changes: int,
    keys: int,
    seed: int,
    fmt: str = "parquet",
    tables: Sequence[TableSpec] = DEFAULT_TABLES,
    trim: str = "random",
    duplicates: float = 0.0,
    shuffle: bool = False,
    rows_per_file: int = 1_000_000,
    row_group_size: int = ROW_GROUP_SIZE,
    append_root: Path | None = None,
    append_changes: int = 0,
) -> dict[str, int]:
    """Generate and land `changes` changes without holding them in memory.

    Rows are buffered per table and written every `row_group_size` rows; each buffered chunk is
    shuffled and given exact duplicates when asked; files roll over after `rows_per_file` rows.
    With `append_root`, the stream goes on for `append_changes` more changes, landed as change
    tables under `append_root` (no baseline): a later batch to move into `root` after a first
    build, as a landing zone receives it. Returns counts: changes, change-table rows and
    baseline rows per table (the later batch's under `append_changes` and `append:<table>`).
    """
    generator = ChangeGenerator(tables, seed=seed, keys=keys)
    rng = random.Random(seed ^ 0x5EED5)
    counts: dict[str, int] = {"changes": changes}
    for spec in tables:
        writer = PartWriter(
            root / spec.name, baseline_schema(spec), fmt=fmt, row_group_size=row_group_size
        )
        rows = baseline_rows(generator.baseline[spec.name], seed=seed)
        writer.write_file(rows)
        counts[spec.name] = len(rows)
    batches = [(root, changes, "")]
    if append_root is not None:
        batches.append((append_root, append_changes, "append:"))
        counts["append_changes"] = append_changes
    for folder, count, label in batches:
        landed = _land_changes(
            generator,
            folder,
            count,
            tables=tables,
            fmt=fmt,
            trim=trim,
            duplicates=duplicates,
            shuffle=shuffle,
            rows_per_file=rows_per_file,
            row_group_size=row_group_size,
            rng=rng,
        )
        counts.update({label + name: rows for name, rows in landed.items()})
    return counts


def _land_changes(
    generator: ChangeGenerator,
    root: Path,
    count: int,
    *,
    tables: Sequence[TableSpec],
    fmt: str,
    trim: str,
    duplicates: float,
    shuffle: bool,
    rows_per_file: int,
    row_group_size: int,
    rng: random.Random,
) -> dict[str, int]:
    """The generator's next `count` changes as change-table part files under `root`; returns
    the change-table rows written per change table."""
    specs = {spec.name: spec for spec in tables}
    writers = {
        name: PartWriter(
            root / change_table_name(spec), ct_schema(spec), fmt=fmt, row_group_size=row_group_size
        )
        for name, spec in specs.items()
    }
    counts = {change_table_name(spec): 0 for spec in tables}
    buffers: dict[str, list[CtRow]] = {name: [] for name in specs}

    def flush(name: str) -> None:
        chunk = scatter(buffers[name], duplicates=duplicates, shuffle=shuffle, rng=rng)[0]
        writer = writers[name]
        if writer.rows_in_file and writer.rows_in_file + len(chunk) > rows_per_file:
            writer.close_file()
        writer.write(chunk)
        counts[change_table_name(specs[name])] += len(chunk)
        buffers[name] = []

    for change in generator.changes(count):
        buffer = buffers[change.table]
        buffer.extend(change_rows(change, specs[change.table], trim=trim))
        if len(buffer) >= row_group_size:
            flush(change.table)
    for name in specs:
        if buffers[name] or not writers[name].paths:
            flush(name)
        writers[name].close_file()
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m cdc_simulator.qlik_ct",
        description="Land simulated Qlik Replicate change tables and full-load tables "
        "(employees, order_lines) under --out.",
    )
    parser.add_argument("--out", type=Path, required=True, help="landing root folder")
    parser.add_argument("--changes", type=int, required=True, help="I/U/D changes in total")
    parser.add_argument("--keys", type=int, default=1000, help="key pool size per table")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--format", choices=FORMATS, default="parquet")
    parser.add_argument("--trim", choices=TRIM_POLICIES, default="random")
    parser.add_argument("--duplicates", type=float, default=0.0, help="fraction duplicated")
    parser.add_argument("--shuffle", action="store_true", help="shuffle rows within chunks")
    parser.add_argument("--rows-per-file", type=int, default=1_000_000)
    parser.add_argument("--row-group-size", type=int, default=ROW_GROUP_SIZE)
    parser.add_argument(
        "--extra-columns", type=int, default=0, help="nullable string columns added per table"
    )
    parser.add_argument("--extra-width", type=int, default=20, help="their values' length")
    parser.add_argument(
        "--append-out", type=Path, help="land a later batch of --append-changes changes here"
    )
    parser.add_argument("--append-changes", type=int, default=0)
    args = parser.parse_args(argv)
    if args.changes < 0 or args.keys < 2 or args.append_changes < 0:
        parser.error("--changes and --append-changes must be >= 0, --keys >= 2")
    if args.extra_columns < 0 or args.extra_width < 1:
        parser.error("--extra-columns must be >= 0 and --extra-width >= 1")
    started = time.perf_counter()
    counts = generate_landing(
        args.out,
        changes=args.changes,
        keys=args.keys,
        seed=args.seed,
        fmt=args.format,
        trim=args.trim,
        duplicates=args.duplicates,
        shuffle=args.shuffle,
        rows_per_file=args.rows_per_file,
        row_group_size=args.row_group_size,
        tables=widened(DEFAULT_TABLES, args.extra_columns, args.extra_width),
        append_root=args.append_out,
        append_changes=args.append_changes,
    )
    elapsed = time.perf_counter() - started
    generated = counts["changes"] + counts.get("append_changes", 0)
    rate = generated / elapsed if elapsed > 0 else float("inf")
    detail = ", ".join(f"{name}={count}" for name, count in counts.items())
    print(f"{args.out}: {detail} in {elapsed:.1f} s ({rate:,.0f} changes/s)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
