"""Many Qlik change tables of tiny data, all alike: what a run costs per table when the data
costs nothing (benchmarks.tables, tests/python/test_many_qlik_tables.py).

Each table lands a full-load row (key 1) and four change-table rows: an insert of key 2
(change 10), an update of key 2's name (change 20: a B and a U row) and a before-image with
no update (change 30: an orphan, quarantined). change_seq numbers every table's changes
apart (number * 1000 + the table's index), as Replicate numbers every change of a task once.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from cdc_simulator.qlik_ct import (
    HEADER_COUNT,
    OPERATIONS,
    CtRow,
    encode_mask,
    mask_length,
    write_parquet,
)
from cdc_simulator.table_model import UTC, ColumnSpec, Key, Row, TableSpec

COLUMNS = (
    ColumnSpec("id", "int32"),
    ColumnSpec("name", "string"),
    ColumnSpec("city", "string", nullable=True),
    ColumnSpec("street", "string", nullable=True),
    ColumnSpec("phone", "string", nullable=True),
    ColumnSpec("note", "string", nullable=True),
)
SOURCE_SCHEMA = "MANY"
BASELINE_ROW = (1, "Al", None, None, None, None)
INSERTED_ROW = (2, "Bo", "Oslo", "Main St 1", "+47 1", 'a "quoted", note')
UPDATED_ROW = (2, "Bea", *INSERTED_ROW[2:])
MAX_TABLES = 1000


def specs(count: int) -> list[TableSpec]:
    """`count` tables table_000, table_001, ... of the same columns, keyed by id."""
    if not 0 < count <= MAX_TABLES:
        raise ValueError(f"between 1 and {MAX_TABLES} tables, got {count}")
    return [TableSpec(f"table_{i:03d}", COLUMNS, ("id",)) for i in range(count)]


def cdc_tables(tables: list[TableSpec]) -> dict[str, dict[str, Any]]:
    """Their entries of var cdc_tables."""
    return {
        spec.name: {
            "source_system": "qlik_ct",
            "source_schema": SOURCE_SCHEMA,
            "key_columns": list(spec.key_columns),
        }
        for spec in tables
    }


def ct_row(spec: TableSpec, index: int, number: int, op: str, values: Row) -> CtRow:
    """One change-table row of change `number` of the table at `index`."""
    seq = "2024030110000000" + str(number * MAX_TABLES + index).zfill(19)
    positions = {"I": range(len(COLUMNS)), "U": [1], "B": []}[op]
    mask = encode_mask([HEADER_COUNT + p for p in positions], trim=False, length=mask_length(spec))
    timestamp = datetime(2024, 3, 1, 10, 0, number % 60, tzinfo=UTC)
    return (
        seq,
        op,
        mask if op != "B" else b"",
        f"lsn:{number}",
        OPERATIONS[op],
        f"tx{number}",
        timestamp,
        *values,
    )


def landing(
    tables: list[TableSpec],
) -> tuple[dict[str, list[CtRow]], dict[str, dict[Key, Row]]]:
    """Every table's change-table rows and full-load rows."""
    changes: dict[str, list[CtRow]] = {}
    baseline: dict[str, dict[Key, Row]] = {}
    for index, spec in enumerate(tables):
        changes[spec.name] = [
            ct_row(spec, index, 10, "I", INSERTED_ROW),
            ct_row(spec, index, 20, "B", INSERTED_ROW),
            ct_row(spec, index, 20, "U", UPDATED_ROW),
            ct_row(spec, index, 30, "B", BASELINE_ROW),
        ]
        baseline[spec.name] = {(1,): BASELINE_ROW}
    return changes, baseline


def write_landing(root: Path, tables: list[TableSpec]) -> None:
    """The tables' landing under `root`, Parquet files as Replicate's file target lands them
    (var qlik_ct_landing: files, qlik_ct_landing_format: parquet)."""
    changes, baseline = landing(tables)
    write_parquet(root, changes, baseline, tables=tables)
