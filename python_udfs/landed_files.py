"""What each file of a landed folder holds, before Spark reads it
(docs/landing-and-quarantine.md, "Landing files").

Spark reads a landed folder as one table with one schema. A file that does not fit it does not
fail loudly: a Parquet file lacking a column reads as NULLs, an extra column is dropped, a
different type or a truncated file fails the whole query, and a CSV file whose header names
other columns is read by position. So every file is inspected first, here, and judged against
the folder's reference file (the oldest readable one, by modification time then name):

* Parquet: the footer's schema (names and Arrow types), compared column by column;
* CSV: the header record (BOM stripped, quoting as the reader options say), compared by name;
* JSON Lines: the field names of the first record (a JSON object on the first non-blank
  line), compared by name in any order (Spark matches JSON fields by name);
* any format: a zero-byte file, an unreadable one, or one whose header does not decode.

`inspect_folder` returns one `LandedFile` per file; `problem` is None for a file that may be
read, else the reason it is kept out (and quarantined). `listing_digest` tells, without
opening a file, whether folders still list the files an earlier inspection saw. Spark's hidden
files (names starting with `_` or `.`) and sub-folders are not part of the table and are not
listed. Pure Python over `pyarrow.fs`, so local paths and the URIs pyarrow knows (s3://, gs://,
hdfs://) work alike.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import io
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

import pyarrow.fs as pafs
import pyarrow.parquet as pq

FORMATS = ("parquet", "csv", "json")
HEADER_BYTES = 1 << 20  # a CSV header longer than 1 MiB is not a header
RECORD_BYTES = 64 << 20  # a first JSON record longer than 64 MiB is not read
UTF8_BOM = codecs.BOM_UTF8


@dataclass(frozen=True, slots=True)
class LandedFile:
    """One landed file: where, when, how big, the columns it holds, and what is wrong with it.

    `columns` is a tuple of (name, type) in file order (CSV: type 'string'); `is_reference`
    marks the file whose columns are the table's.
    """

    file_name: str
    file_path: str
    modified_at: datetime
    size_bytes: int
    columns: tuple[tuple[str, str], ...]
    is_reference: bool
    problem: str | None


def _filesystem(folder: str) -> tuple[pafs.FileSystem, str]:
    if "://" not in folder and not folder.startswith("file:"):
        return pafs.LocalFileSystem(), os.path.abspath(folder)
    if folder.startswith("file:") and not folder.startswith("file://"):
        return pafs.LocalFileSystem(), os.path.abspath(folder[len("file:") :])
    filesystem, path = pafs.FileSystem.from_uri(folder)
    return filesystem, str(path)


def _parquet_columns(filesystem: pafs.FileSystem, path: str) -> tuple[tuple[str, str], ...]:
    with filesystem.open_input_file(path) as handle:
        schema = pq.read_schema(handle)
    return tuple((field.name, str(field.type)) for field in schema)


def csv_dialect(options: Mapping[str, str]) -> dict[str, object]:
    """Python csv settings equal to Spark's CSV reader options (sep, quote, escape)."""
    delimiter = options.get("sep", options.get("delimiter", ","))
    quote = options.get("quote", '"')
    escape = options.get("escape", "\\")
    dialect: dict[str, object] = {"delimiter": delimiter, "quotechar": quote or None}
    if quote and escape == quote:
        dialect["doublequote"] = True
    else:
        dialect["doublequote"] = False
        dialect["escapechar"] = escape or None
    return dialect


def _csv_columns(
    filesystem: pafs.FileSystem, path: str, options: Mapping[str, str]
) -> tuple[tuple[str, str], ...]:
    with filesystem.open_input_file(path) as handle:
        head = handle.read(HEADER_BYTES)
    encoding = options.get("encoding", options.get("charset", "utf-8"))
    if head.startswith(UTF8_BOM) and encoding.lower().replace("-", "") == "utf8":
        head = head[len(UTF8_BOM) :]
    text = head.decode(encoding, errors="strict") if len(head) < HEADER_BYTES else None
    if text is None:
        text = head.decode(encoding, errors="ignore")
    reader = csv.reader(io.StringIO(text, newline=""), **csv_dialect(options))  # type: ignore[arg-type]
    header = next(reader, None)
    if not header:
        raise ValueError("no header record")
    return tuple((name, "string") for name in header)


def _json_columns(filesystem: pafs.FileSystem, path: str) -> tuple[tuple[str, str], ...]:
    """The field names of a JSON Lines file's first record (type 'string')."""
    head = b""
    with filesystem.open_input_file(path) as handle:
        while True:
            chunk = handle.read(HEADER_BYTES)
            head += chunk
            if head.startswith(UTF8_BOM):
                head = head[len(UTF8_BOM) :]
            lines = head.lstrip(b" \t\r\n").split(b"\n", 1)
            if len(lines) > 1 or not chunk:
                break
            if len(head) >= RECORD_BYTES:
                raise ValueError(f"first record longer than {RECORD_BYTES} bytes")
    line = lines[0].strip()
    if not line:
        raise ValueError("no record")
    record = json.loads(line.decode("utf-8"))
    if not isinstance(record, dict):
        raise ValueError("first record is not a JSON object")
    return tuple((str(name), "string") for name in record)


def column_differences(
    columns: Sequence[tuple[str, str]],
    reference: Sequence[tuple[str, str]],
    compare_types: bool,
    compare_order: bool = True,
) -> list[str]:
    """What differs between a file's columns and the reference's: missing, extra, retyped,
    reordered (unless not `compare_order`). Names compare case-insensitively, as Spark
    resolves them."""
    mine = {name.lower(): kind for name, kind in columns}
    theirs = {name.lower(): kind for name, kind in reference}
    reasons = []
    missing = [name for name, _ in reference if name.lower() not in mine]
    extra = [name for name, _ in columns if name.lower() not in theirs]
    if missing:
        reasons.append("lacks column " + ", ".join(missing))
    if extra:
        reasons.append("has extra column " + ", ".join(extra))
    if compare_types:
        for name, kind in columns:
            expected = theirs.get(name.lower())
            if expected is not None and expected != kind:
                reasons.append(f"column {name} is {kind}, the table's is {expected}")
    if compare_order and not missing and not extra:
        order = [name.lower() for name, _ in columns]
        if order != [name.lower() for name, _ in reference]:
            reasons.append("columns in another order: " + ", ".join(name for name, _ in columns))
    return reasons


def _data_files(filesystem: pafs.FileSystem, path: str) -> list[pafs.FileInfo]:
    """The data files directly in `path` (not hidden, not folders), oldest first, then by
    name; a missing folder has none."""
    try:
        infos = filesystem.get_file_info(pafs.FileSelector(path, recursive=False))
    except FileNotFoundError:
        return []
    return sorted(
        (
            info
            for info in infos
            if info.type == pafs.FileType.File and not info.base_name.startswith(("_", "."))
        ),
        key=lambda info: (info.mtime_ns or 0, info.base_name),
    )


def listing_digest(folders: Sequence[str]) -> str | None:
    """An MD5 of what `inspect_folder` lists in each of `folders`, by each file's name, size
    and modification time, without opening one: equal digests, the same files, none added,
    removed, grown or rewritten (a rewrite sets a new modification time). None when a file's
    modification time is unknown (the file system does not say): then no listing can be
    told from another, and the caller must inspect the folders again."""
    listing = []
    for folder in folders:
        filesystem, path = _filesystem(folder)
        files = []
        for info in _data_files(filesystem, path):
            if info.mtime_ns is None:
                return None
            files.append([info.base_name, info.size, info.mtime_ns])
        listing.append([folder, files])
    return hashlib.md5(json.dumps(listing).encode(), usedforsecurity=False).hexdigest()


def inspect_folder(
    folder: str, file_format: str, options: Mapping[str, str] | None = None
) -> list[LandedFile]:
    """Every data file directly in `folder`, with its columns and its problem (None: readable
    and like the reference file). A missing folder lists nothing."""
    file_format = file_format.lower()
    if file_format not in FORMATS:
        raise ValueError(f"file format must be one of {FORMATS}, got {file_format!r}")
    options = {key: str(value) for key, value in (options or {}).items()}
    filesystem, path = _filesystem(folder)
    files = _data_files(filesystem, path)
    inspected: list[tuple[pafs.FileInfo, tuple[tuple[str, str], ...], str | None]] = []
    for info in files:
        columns: tuple[tuple[str, str], ...] = ()
        problem = None
        if info.size == 0:
            problem = "zero-byte file: nothing to read"
        else:
            try:
                if file_format == "parquet":
                    columns = _parquet_columns(filesystem, info.path)
                elif file_format == "json":
                    columns = _json_columns(filesystem, info.path)
                else:
                    columns = _csv_columns(filesystem, info.path, options)
            except (OSError, ValueError, UnicodeDecodeError, csv.Error) as error:
                first_line = (str(error).strip().splitlines() or [type(error).__name__])[0]
                problem = f"unreadable {file_format} file: {first_line}"
        inspected.append((info, columns, problem))
    reference = next((entry for entry in inspected if entry[2] is None), None)
    landed = []
    for info, columns, problem in inspected:
        is_reference = reference is not None and info is reference[0]
        if problem is None and reference is not None and not is_reference:
            reasons = column_differences(
                columns,
                reference[1],
                compare_types=file_format == "parquet",
                compare_order=file_format != "json",
            )
            if reasons:
                problem = (
                    f"{file_format} file does not match the table's columns (those of "
                    f"{reference[0].base_name}): " + "; ".join(reasons)
                )
        landed.append(
            LandedFile(
                file_name=info.base_name,
                file_path=info.path,
                modified_at=datetime.fromtimestamp((info.mtime_ns or 0) / 1e9),
                size_bytes=info.size or 0,
                columns=columns,
                is_reference=is_reference,
                problem=problem,
            )
        )
    return landed
