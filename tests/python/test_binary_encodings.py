"""Binary values landed as hex text and as Base64 text (issue 23): the per-table
`column_encodings` option says how the text holds the bytes, for Oracle GoldenGate (default
base64; decoded trail records, E1, and Big Data JSON messages, E2), Qlik Replicate Kafka
messages (default hex) and the IDM event log (default base64) alike.

GoldenGate: the same binary values (true bytes below) are written by `cdc_simulator.goldengate`
(`json_value`'s encoding) hex-encoded into the images of two tables configured `hex` and
Base64-encoded into two tables that are not configured (trail: the default) or configured
`base64` (JSON): inserts, a NULL, a FieldComp update (JSON: with its before image). Several
texts are valid in both encodings (hex 00010203 and DEADBEEF are Base64 too, Base64 AAAA is
hex too): the configured encoding wins. Each table also lands one value that is not valid in
its encoding (an odd count of hex digits, which Spark's unhex would pad; Base64 text in a hex
column; text that is not Base64): that record is quarantined, naming the column, with the
reason every format gives (cdc_binary_text_error).

Kafka: `cdc_simulator.qlik_kafka` publishes one simulation's two tables, one with hex values
(not configured: the default) and one with Base64 values (configured `base64`); each change's
logged bytes equal the model's. IDM: the GoldenGate values as field events of two tables (hex
configured, Base64 the default), an update and an invalid value each.

Checked on the change log and the quarantine. One `dbt run` of the change log and quarantine
in a project copy with only these tables.

Time budget: about 2 to 3 minutes (one dbt run of the GoldenGate, Kafka and IDM models).
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from cdc_simulator import qlik_kafka
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
from cdc_simulator.project_copy import project_with_tables
from cdc_simulator.table_model import ColumnSpec, Simulation, TableSpec, simulate

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "binary_encodings"
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
START = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)

# Kafka: table -> its encoding (the hex table is not configured: hex is the default)
KAFKA_TABLES = {"kafka_blob_hex": "hex", "kafka_blob_base64": "base64"}
KAFKA_SPECS = tuple(
    TableSpec(
        name=table,
        columns=(
            ColumnSpec("blob_id", "int32"),
            ColumnSpec("attachment", "binary", nullable=True),
        ),
        key_columns=("blob_id",),
    )
    for table in KAFKA_TABLES
)
KAFKA_OPTIONS = qlik_kafka.KafkaOptions(
    source_schema="DOCS", versions=1, uncaptured=0.0, binary_encodings=KAFKA_TABLES
)
# IDM: table -> its encoding (the Base64 table is not configured: base64 is the default)
IDM_TABLES = {"idm_blob_hex": "hex", "idm_blob_base64": "base64"}
IDM_FIELDS = (
    "record_id",
    "table_key",
    "status",
    "event_type",
    "event_time",
    "perpetrator",
    "table_name",
    "column_name",
    "old_value",
    "new_value",
)


def cdc_tables() -> dict[str, Any]:
    tables: dict[str, Any] = {}
    for spec in KAFKA_SPECS:
        tables[spec.name] = {
            "source_system": "qlik_kafka",
            "source_schema": KAFKA_OPTIONS.source_schema,
            "topic": KAFKA_OPTIONS.topic(spec.name),
            "key_columns": ["blob_id"],
            "columns": COLUMNS,
            **(
                {"column_encodings": {"attachment": "base64"}}
                if KAFKA_TABLES[spec.name] == "base64"
                else {}
            ),
        }
    for table, encoding in IDM_TABLES.items():
        tables[table] = {
            "source_system": "idm_jdbc",
            "source_schema": "DOCS",
            "key_columns": ["blob_id"],
            "columns": {"blob_id": "int", "photo": "binary"},
            **({"column_encodings": {"photo": "hex"}} if encoding == "hex" else {}),
        }
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
    rows: list[tuple[str, dict[str, object] | None, dict[str, object]]] = [
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


def kafka_simulation() -> Simulation:
    return simulate(30, keys=8, seed=23, tables=KAFKA_SPECS)


def kafka_landing(root: Path, sim: Simulation) -> None:
    producer = qlik_kafka.Producer(sim, KAFKA_OPTIONS, seed=23)
    messages = [*producer.metadata(), *producer.baseline(), *producer.changes(sim.changes)]
    qlik_kafka.write_topics(root, messages, seed=23)


def idm_events() -> list[dict[str, object]]:
    """The GoldenGate values as IDM field events: inserts (1), an update (2), an invalid one."""
    events: list[dict[str, object]] = []
    for table, encoding in IDM_TABLES.items():
        rows: list[tuple[int, int, bytes | None, bytes]] = [
            (1, blob_id, None, value) for blob_id, value in INSERTED if value is not None
        ]
        rows.append((2, 1, INSERTED[0][1], UPDATED))
        for event_type, blob_id, old, new in rows:
            events.append(
                {
                    "table_name": table,
                    "table_key": f"blob_id={blob_id}",
                    "event_type": str(event_type),
                    "old_value": text(old, encoding),
                    "new_value": text(new, encoding),
                }
            )
        invalid = INVALID["ogg_blob_hex" if encoding == "hex" else "ogg_blob_base64"]
        events.append(
            {
                "table_name": table,
                "table_key": f"blob_id={INVALID_ID}",
                "event_type": "1",
                "old_value": None,
                "new_value": invalid,
            }
        )
    return [
        {
            "record_id": str(100 + number),
            "status": "S",
            "event_time": f"{START + timedelta(minutes=number):%Y-%m-%d %H:%M:%S}",
            "perpetrator": "DOCAPP",
            "column_name": "photo",
            **event,
        }
        for number, event in enumerate(events, start=1)
    ]


def idm_landing(root: Path) -> None:
    folder = root / "event_log"
    folder.mkdir(parents=True)
    schema = pa.schema([(name, pa.string()) for name in IDM_FIELDS])
    pq.write_table(pa.Table.from_pylist(idm_events(), schema=schema), folder / "part-0.parquet")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, spark: Any, run_dbt: Any) -> Any:
    work = tmp_path_factory.mktemp("binary_encodings")
    project = project_with_tables(work / "project", cdc_tables())
    root = work / "landing"
    landing(root / "goldengate")
    kafka_landing(root / "qlik_kafka", kafka_simulation())
    idm_landing(root / "idm_jdbc")
    run_dbt(
        ["run", "--select", "+fct_cdc_changes", "+fct_cdc_quarantine"],
        schema=SCHEMA,
        vars={
            "cdc_tables": cdc_tables(),
            "goldengate_landing": "files",
            "goldengate_landing_root": str(root / "goldengate"),
            "goldengate_landing_format": "parquet",
            "goldengate_schema": f"{SCHEMA}_ogg_raw",
            "qlik_kafka_landing": "files",
            "qlik_kafka_landing_root": str(root / "qlik_kafka"),
            "qlik_kafka_landing_format": "parquet",
            "qlik_kafka_schema": f"{SCHEMA}_kafka_raw",
            "qlik_kafka_metadata_topic": KAFKA_OPTIONS.metadata_topic,
            "qlik_kafka_task": KAFKA_OPTIONS.task,
            "idm_jdbc_landing": "files",
            "idm_jdbc_landing_root": str(root / "idm_jdbc"),
            "idm_jdbc_landing_format": "parquet",
            "idm_jdbc_schema": f"{SCHEMA}_idm_raw",
        },
        project_dir=project,
    )
    return spark


def test_the_ambiguous_texts_are_valid_in_both_encodings() -> None:
    """The premise: reading these texts the other way would silently give other bytes."""
    for value in (INSERTED[0][1], UPDATED):
        assert value is not None
        assert base64.b64decode(value.hex().upper(), validate=True) != value
    assert bytes.fromhex("AAAA") != INSERTED[1][1]


def decoded(text_value: str | None) -> bytes | None:
    return None if text_value is None else binascii.a2b_base64(text_value)


def test_each_goldengate_table_decodes_the_true_bytes(built: Any) -> None:
    rows = built.sql(
        "select source_table, op, pk_string, before_image['attachment'],"
        f" after_image['attachment'] from {SCHEMA}.fct_cdc_changes"
        " where source_system like 'ogg%' order by order_key"
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
    reason = "value of {} is not valid {} text of a binary value"
    expected = [
        ("idm_blob_base64", "new_" + reason.format("photo", "Base64")),
        ("idm_blob_hex", "new_" + reason.format("photo", "hex")),
        ("ogg_blob_base64", "trail record: " + reason.format("attachment", "Base64")),
        ("ogg_blob_base64_json", "message: " + reason.format("attachment", "Base64")),
        ("ogg_blob_hex", "trail record: " + reason.format("attachment", "hex")),
        ("ogg_blob_hex_json", "message: " + reason.format("attachment", "hex")),
    ]
    assert len(rows) == len(expected), rows
    for (table, found), (want_table, want) in zip(rows, expected, strict=True):
        assert table == want_table and want in found, (table, found)


def test_kafka_decodes_the_true_bytes_in_either_encoding(built: Any) -> None:
    sim = kafka_simulation()
    rows = built.sql(
        f"select source_table, order_key, after_image['attachment'] from {SCHEMA}.fct_cdc_changes"
        " where source_system = 'qlik_kafka' and op in ('I', 'U')"
    ).collect()
    logged = {(table, order_key): decoded(value) for table, order_key, value in rows}
    checked = {table: 0 for table in KAFKA_TABLES}
    for change in sim.changes:
        if change.after is None:
            continue
        assert logged[(change.table, change.change_seq)] == change.after[1], change
        checked[change.table] += 1
    assert all(count >= 5 for count in checked.values()), checked
    texts = [
        qlik_kafka.json_value(change.after[1], numbers=False)
        for change in sim.changes
        if change.after is not None and change.after[1] is not None
    ]
    assert any(len(str(value)) % 4 == 0 for value in texts), "a hex text valid as Base64 too"


def test_idm_decodes_the_true_bytes_in_either_encoding(built: Any) -> None:
    rows = built.sql(
        "select source_table, op, pk_string, before_image['photo'], after_image['photo']"
        f" from {SCHEMA}.fct_cdc_changes where source_system = 'idm_jdbc' order by order_key"
    ).collect()
    found: dict[str, list[tuple[object, ...]]] = {table: [] for table in IDM_TABLES}
    for table, op, pk_string, before, after in rows:
        found[table].append((op, pk_string, decoded(before), decoded(after)))
    truth = [
        ("I", f"blob_id={blob_id}", None, value) for blob_id, value in INSERTED if value is not None
    ]
    assert found["idm_blob_hex"] == [*truth, ("U", "blob_id=1", INSERTED[0][1], UPDATED)]
    assert found["idm_blob_base64"] == found["idm_blob_hex"]
