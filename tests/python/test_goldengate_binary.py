"""Oracle GoldenGate binary values landed as hex text and as Base64 text (issue 23): the
per-table `column_encodings` option (default base64) says how an image's text holds the bytes,
for decoded trail records (E1) and Big Data JSON messages (E2) alike.

The same binary values (true bytes below) are written by `cdc_simulator.goldengate` (its
`binary_encoding`) hex-encoded into the images of two tables configured `hex` and
Base64-encoded into two tables that are not configured (trail: the default) or configured
`base64` (JSON): inserts, a NULL, a FieldComp update (JSON: with its before image). Several
texts are valid in both encodings (hex 00010203 and DEADBEEF are Base64 too, Base64 AAAA is hex
too): the configured encoding wins. Each table also lands one value that is not valid in its
encoding (an odd count of hex digits, which Spark's unhex would pad; Base64 text in a hex
column; text that is not Base64): that record is quarantined, naming the column.

Checked on the change log: each table's decoded bytes equal the true bytes, so all four agree;
the quarantine holds the four invalid records with the shared reason of every format
(cdc_binary_text_error). One `dbt run` of the change log and quarantine in a project copy
with only these tables.

Time budget: about 2 minutes (one dbt run of the GoldenGate models).
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from project_copy import project_with_tables

from cdc_simulator.goldengate import (
    FIELD_COMP,
    INSERT,
    Message,
    TrailRecord,
    json_value,
    message_table,
    trail_table,
    write_landing,
)
from cdc_simulator.table_model import ColumnSpec, TableSpec

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "goldengate_binary"
SPEC = TableSpec(
    name="ogg_blob",
    columns=(ColumnSpec("blob_id", "int32"), ColumnSpec("attachment", "binary", nullable=True)),
    key_columns=("blob_id",),
)
COLUMNS = {"blob_id": {"type": "int"}, "attachment": {"type": "binary"}}
# table -> (form, name GoldenGate writes, encoding of its images, column_encodings setting)
TABLES = {
    "ogg_blob_hex": ("trail", "DOCS.BLOB_HEX", "hex", {"attachment": "hex"}),
    "ogg_blob_base64": ("trail", "DOCS.BLOB_B64", "base64", None),
    "ogg_blob_hex_json": ("json", "DOCS.BLOB_HEX", "hex", {"attachment": "hex"}),
    "ogg_blob_base64_json": ("json", "DOCS.BLOB_B64", "base64", {"attachment": "base64"}),
}
# (blob_id, true bytes) inserted in this order; then blob 1 is updated to UPDATED
INSERTED = [
    (1, b"\x00\x01\x02\x03"),  # hex 00010203 is Base64 too
    (2, b"\x00\x00\x00"),  # Base64 AAAA is hex too (AA AA)
    (3, bytes(range(256))),
    (4, None),
]
UPDATED = b"\xde\xad\xbe\xef"  # hex DEADBEEF is Base64 too
INVALID = {
    "ogg_blob_hex": "00010",  # an odd count of hex digits
    "ogg_blob_base64": "AAEC!",
    "ogg_blob_hex_json": "AAEC+w==",  # Base64, not hex
    "ogg_blob_base64_json": "#0001",
}
INVALID_ID = 9
START = datetime(2024, 3, 1, 12, 0, tzinfo=UTC)


def cdc_tables() -> dict[str, Any]:
    tables: dict[str, Any] = {}
    for table, (form, source_name, _, encodings) in TABLES.items():
        tables[table] = {
            "source_system": "goldengate",
            "source_schema": "DOCS",
            "source_table_name": source_name,
            "form": form,
            "key_columns": ["blob_id"],
            "columns": COLUMNS,
            **({"column_encodings": encodings} if encodings else {}),
        }
    return tables


def text(value: bytes | None, encoding: str) -> object:
    """A value as the emitter writes it into an image (hex or Base64 text)."""
    return json_value(SPEC, "attachment", value, encoding)


def changes(table: str) -> list[tuple[str, dict[str, object] | None, dict[str, object]]]:
    """(op, before image, after image) of the table's changes, in trail order."""
    encoding, invalid = TABLES[table][2], INVALID[table]
    rows = [
        ("I", None, {"BLOB_ID": blob_id, "ATTACHMENT": text(value, encoding)})
        for blob_id, value in INSERTED
    ]
    before = {"BLOB_ID": 1, "ATTACHMENT": text(INSERTED[0][1], encoding)}
    rows.append(("U", before, {"BLOB_ID": 1, "ATTACHMENT": text(UPDATED, encoding)}))
    rows.append(("I", None, {"BLOB_ID": INVALID_ID, "ATTACHMENT": invalid}))
    return rows


def landing(root: Path) -> None:
    records: list[TrailRecord] = []
    messages: list[Message] = []
    for seqno, (table, (form, source_name, _, _)) in enumerate(TABLES.items(), start=20):
        for number, (op, before, after) in enumerate(changes(table), start=1):
            rba, moment = number * 100, START + timedelta(minutes=number)
            if form == "trail":
                records.append(
                    TrailRecord(
                        seqno=seqno,
                        rba=rba,
                        io_type=INSERT if op == "I" else FIELD_COMP,
                        trans_ind=3,
                        before_after="A",
                        io_time=moment,
                        table_name=source_name,
                        before=None,
                        after=after,
                        tokens={},
                    )
                )
                continue
            value = {
                "table": source_name,
                "op_type": op,
                "op_ts": f"{moment:%Y-%m-%d %H:%M:%S.%f}",
                "current_ts": f"{moment:%Y-%m-%dT%H:%M:%S.%f}",
                "pos": f"{seqno:010d}{rba:010d}",
                "primary_keys": ["BLOB_ID"],
                "before": before,
                "after": after,
            }
            messages.append(
                Message(
                    topic="ogg_blobs",
                    partition=0,
                    offset=len(messages),
                    key=json.dumps([after["BLOB_ID"]]),
                    value=json.dumps(value),
                    timestamp=moment,
                    order_key=f"{seqno:010d}{rba:020d}",
                )
            )
    write_landing(root / "ogg_trail_records", trail_table(records), files=1, seed=1)
    write_landing(root / "ogg_json_messages", message_table(messages), files=1, seed=1)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, spark: Any, run_dbt: Any) -> Any:
    work = tmp_path_factory.mktemp("goldengate_binary")
    project = project_with_tables(work / "project", cdc_tables())
    root = work / "landing"
    landing(root)
    run_dbt(
        ["run", "--select", "+fct_cdc_changes", "+fct_cdc_quarantine"],
        schema=SCHEMA,
        vars={
            "cdc_tables": cdc_tables(),
            "goldengate_landing": "files",
            "goldengate_landing_root": str(root),
            "goldengate_landing_format": "parquet",
            "goldengate_schema": f"{SCHEMA}_raw",
        },
        project_dir=project,
    )
    return spark


def test_the_ambiguous_texts_are_valid_in_both_encodings() -> None:
    """The premise: reading these texts the other way would silently give other bytes."""
    for value in (INSERTED[0][1], UPDATED):
        assert base64.b64decode(value.hex().upper(), validate=True) != value
    assert bytes.fromhex("AAAA") != INSERTED[1][1]


def decoded(text_value: str | None) -> bytes | None:
    return None if text_value is None else binascii.a2b_base64(text_value)


def test_each_table_decodes_the_true_bytes(built: Any) -> None:
    rows = built.sql(
        "select source_table, op, pk_string, before_image['attachment'],"
        f" after_image['attachment'] from {SCHEMA}.fct_cdc_changes order by order_key"
    ).collect()
    found: dict[str, list[tuple[object, ...]]] = {table: [] for table in TABLES}
    for table, op, pk_string, before, after in rows:
        found[table].append((op, pk_string, decoded(before), decoded(after)))
    truth = [("I", f"blob_id={blob_id}", None, value) for blob_id, value in INSERTED]
    assert found["ogg_blob_hex"] == [*truth, ("U", "blob_id=1", None, UPDATED)]
    assert found["ogg_blob_base64"] == found["ogg_blob_hex"]
    assert found["ogg_blob_hex_json"] == [*truth, ("U", "blob_id=1", INSERTED[0][1], UPDATED)]
    assert found["ogg_blob_base64_json"] == found["ogg_blob_hex_json"]


def test_a_value_not_valid_in_its_encoding_is_quarantined(built: Any) -> None:
    rows = built.sql(
        f"select source_table, reason from {SCHEMA}.fct_cdc_quarantine order by source_table"
    ).collect()
    reason = "value of attachment is not valid {} text of a binary value"
    assert [tuple(row) for row in rows] == [
        ("ogg_blob_base64", "trail record: " + reason.format("Base64")),
        ("ogg_blob_base64_json", "message: " + reason.format("Base64")),
        ("ogg_blob_hex", "trail record: " + reason.format("hex")),
        ("ogg_blob_hex_json", "message: " + reason.format("hex")),
    ]
