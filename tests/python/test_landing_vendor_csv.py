"""End to end, vendor-style CSV: the landing that used to give wrong history at every point.

The independent model (`cdc_simulator`) generates changes of employees, order_lines and
documents, whose strings are what real sources hold (`HOSTILE_TEXTS`: quotes, `""`, line
breaks, empty strings, separators, a 50,000-character multi-line value; keys holding
, ; ' + " = \\ < >) and whose attachments are binary. They are landed as Replicate's file target
writes CSV (`csv_field`: RFC 4180, NULL an empty field, "" an empty string, binary as hex), in
shuffled files with exact duplicate deliveries, under a landing root whose path holds a quote,
a double quote and a space. Then ONE `dbt build` (files mode, csv), and:

* `<table>_as_of(point)` at change sequences and times across the run, and the current state,
  equal the model's state there, typed (binary as bytes, "" apart from NULL). The Parquet proof
  (test_qlik_ct_proof.py) compares the same model's states, so both landings answer alike;
* the files and records no reader should take are kept out, each with its reason, while the
  good rows of their folders flow: a zero-byte file, a file with a UTF-8 byte order mark (read:
  its rows are real changes), a header-only file (read: nothing), a file whose header lists
  the columns in another order, a record with a field too many, and an attachment that is not
  hex;
* the shipped IDM sample, landed in the same build as CSV files (idm_jdbc_landing: files,
  beside a zero-byte file), answers as the seeds do;
* configuration values that reach SQL as data (the Replicate task, the IDM driver and its
  account) hold quotes, backslashes and SQL, and arrive as text.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from sample_expectations import EXPECTED_IDM_QUARANTINE, IDM_ACCOUNTS, IDM_USERS
from state_check import Expectation, check, check_all

from cdc_simulator.qlik_ct import csv_field, emit, write_csv
from cdc_simulator.table_model import (
    DOCUMENTS,
    EMPLOYEES,
    HOSTILE_TEXTS,
    ORDER_LINES,
    format_time_point,
    simulate,
)

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

# the repository's sample project: its tables (cdc_tables) and its seeds
SAMPLES_DIR = Path(__file__).resolve().parents[2] / "samples"
SCHEMA = "vendor_csv"
RAW_SCHEMA = "vendor_csv_raw"
TABLES = (EMPLOYEES, ORDER_LINES, DOCUMENTS)
SEED = 20241125  # a seed whose documents hold every HOSTILE_TEXTS value
CHANGES = 300
KEYS = 40

PROJECT_TABLES = yaml.safe_load((SAMPLES_DIR / "dbt_project.yml").read_text())["vars"]["cdc_tables"]
# Landed CSV is text: the non-string columns of employees and order_lines are typed here;
# documents declares its columns and says its attachment is hex (dbt_project.yml).
CDC_TABLES = {
    "employees": {
        **PROJECT_TABLES["employees"],
        "column_types": {
            "employee_id": "int",
            "salary": "decimal(10,2)",
            "hired_on": "date",
            "manager_id": "int",
        },
    },
    "order_lines": {
        **PROJECT_TABLES["order_lines"],
        "column_types": {
            "line_no": "int",
            "order_id": "bigint",
            "quantity": "int",
            "unit_price": "decimal(12,2)",
            "shipped_at": "timestamp",
        },
    },
    "documents": PROJECT_TABLES["documents"],
    # the IDM sample, landed as CSV files too (idm_jdbc_landing: files)
    "usr": PROJECT_TABLES["usr"],
    "acct": PROJECT_TABLES["acct"],
}
IDM_SEEDS = SAMPLES_DIR / "seeds" / "idm_jdbc"

# configuration values that reach SQL as data (sql_string_literal), hostile on purpose: they
# must arrive as text, never run
HOSTILE_TASK = "t' || current_user() || '"
HOSTILE_DRIVER = "drv\\'; select 1 --"
HOSTILE_ACCOUNT = "IDM'DRV\\"

# the records and files planted beside the model's changes (none of them is a change)
PLANTED_SEQ = "20991231235959990000000000000999999"
EXPECTED_QUARANTINE = {
    ("employees__ct", "part-empty.csv", "landed file kept out: zero-byte file: nothing to read"),
    (
        "documents__ct",
        "part-reordered.csv",
        "landed file kept out: csv file does not match the table's columns (those of "
        "part-00000.csv): columns in another order: header__change_seq, header__change_oper, "
        "header__change_mask, header__stream_position, header__operation, "
        "header__transaction_id, header__timestamp, title, doc_code, body, attachment, "
        "revised_at",
    ),
    (
        # its fields are what the parser made of it: no delivery of that key (the bad-hex
        # record at the same change_seq is no conflicting duplicate)
        "documents__ct",
        f"{PLANTED_SEQ}+U",
        "malformed CSV record: not the header's number of fields, or a quote left open",
    ),
    (
        "documents__ct",
        f"{PLANTED_SEQ}+U",
        "value of attachment is not valid hex text of a binary value",
    ),
}


def header(spec: Any) -> str:
    names = [
        "header__change_seq",
        "header__change_oper",
        "header__change_mask",
        "header__stream_position",
        "header__operation",
        "header__transaction_id",
        "header__timestamp",
        *spec.column_names,
    ]
    return ",".join(names)


def planted_update(attachment: str) -> list[str]:
    """A documents U record at a change sequence after every real change."""
    row = (PLANTED_SEQ, "U", "0004", "lsn:planted", "UPDATE", "F" * 32, "2099-12-31 23:59:59")
    data = ("K0001, ", "planted", None, None, None)
    return [csv_field(value) for value in row + data[:3]] + [attachment, ""]


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    sim = simulate(CHANGES, keys=KEYS, seed=SEED, tables=TABLES)
    root = tmp_path_factory.mktemp("vendor csv") / 'it\'s a "root"'
    write_csv(
        root,
        emit(sim.changes, TABLES),
        sim.baseline,
        tables=TABLES,
        files=3,
        duplicates=0.05,
        shuffle=True,
        seed=SEED,
    )
    employees = root / "employees__ct"
    (employees / "part-empty.csv").write_bytes(b"")
    first = employees / "part-00000.csv"
    first.write_bytes(b"\xef\xbb\xbf" + first.read_bytes())
    (root / "order_lines__ct" / "part-header-only.csv").write_text(
        header(ORDER_LINES) + "\n", encoding="utf-8"
    )
    documents = root / "documents__ct"
    reordered = header(DOCUMENTS).replace("doc_code,title", "title,doc_code")
    (documents / "part-reordered.csv").write_text(
        reordered + "\n" + ",".join(planted_update("00")) + "\n", encoding="utf-8"
    )
    (documents / "part-malformed.csv").write_text(
        header(DOCUMENTS) + "\n" + ",".join(planted_update("00")) + ",one too many\n",
        encoding="utf-8",
    )
    (documents / "part-bad-hex.csv").write_text(
        header(DOCUMENTS) + "\n" + ",".join(planted_update("XYZ")) + "\n", encoding="utf-8"
    )
    idm_root = root.parent / "idm landing"
    for landed in ("event_log", "usr_snapshot"):
        (idm_root / landed).mkdir(parents=True)
        shutil.copyfile(IDM_SEEDS / f"{landed}.csv", idm_root / landed / "part-00000.csv")
    # the driver's own rows carry the (hostile) driver account as their perpetrator
    event_log = idm_root / "event_log" / "part-00000.csv"
    text = event_log.read_text(encoding="utf-8")
    assert ",IDMDRV," in text
    event_log.write_text(
        text.replace(",IDMDRV,", "," + csv_field(HOSTILE_ACCOUNT) + ","), encoding="utf-8"
    )
    (idm_root / "event_log" / "part-empty.csv").write_bytes(b"")
    return sim, root


@pytest.fixture(scope="module")
def build(scenario: tuple[Any, Path], run_dbt: Any) -> Any:
    sim, root = scenario
    run_dbt(
        ["build", "--exclude", "test_type:unit"],
        schema=SCHEMA,
        vars={
            "qlik_ct_landing": "files",
            "qlik_ct_landing_root": str(root),
            "qlik_ct_landing_format": "csv",
            "qlik_ct_schema": RAW_SCHEMA,
            "idm_jdbc_landing": "files",
            "idm_jdbc_landing_root": str(root.parent / "idm landing"),
            "idm_jdbc_landing_format": "csv",
            "idm_jdbc_schema": RAW_SCHEMA + "_idm",
            "qlik_ct_task": HOSTILE_TASK,
            "idm_jdbc_driver": HOSTILE_DRIVER,
            "idm_jdbc_driver_account": HOSTILE_ACCOUNT,
            "cdc_tables": CDC_TABLES,
        },
    )
    return sim


def test_the_landing_holds_what_text_landings_get_wrong(scenario: tuple[Any, Path]) -> None:
    sim, root = scenario
    values = {
        value
        for state in (sim.baseline, sim.final)
        for row in state["documents"].values()
        for value in row
    } | {value for change in sim.changes if change.table == "documents" for value in change.row}
    texts = {value for value in values if isinstance(value, str)}
    assert set(HOSTILE_TEXTS) <= texts
    assert any(len(text) == 50_000 for text in texts)
    assert any(isinstance(value, bytes) for value in values)
    assert None in values
    landed = "".join(
        path.read_bytes().decode("utf-8") for path in (root / "documents__ct").glob("part-0*.csv")
    )
    assert ',"",' in landed and ",," in landed  # an empty string, and a NULL
    assert '"Q""T"' in landed and "crlf\r\nline" in landed


def test_points_in_time_equal_the_model(spark: Any, build: Any) -> None:
    sim = build
    changes = sim.changes
    points = [(change.change_seq, sim.state_at(change.change_seq)) for change in changes[::37]]
    moment = format_time_point(changes[len(changes) // 2].commit_time)
    points.append((moment, sim.state_at_time(moment)))
    points.append(("latest", sim.final))
    failures: list[str] = []
    for spec in TABLES:
        failures += check_all(
            spark,
            spec,
            [
                Expectation(f"{SCHEMA}.{spec.name}_as_of('{point}')", expected[spec.name], point)
                for point, expected in points
            ],
        )
    for spec in TABLES:
        relation = f"{SCHEMA}.dim_{spec.name}_current"
        failures += check(spark, spec, relation, sim.final[spec.name], "current")
    assert not failures, "\n".join(failures)


def test_bad_files_and_records_are_quarantined_with_their_reason(spark: Any, build: Any) -> None:
    found = spark.sql(
        f"select landed_table, raw_key, reason, record_json from {SCHEMA}.fct_cdc_quarantine "
        "where source_system = 'qlik_ct'"
    ).collect()
    keyed = {(row.landed_table, row.raw_key, row.reason) for row in found}
    assert keyed == EXPECTED_QUARANTINE
    malformed = [row for row in found if row.reason.startswith("malformed CSV record")]
    assert json.loads(malformed[0].record_json)["malformed_record"].endswith(",one too many")


def test_the_file_list_says_which_files_were_read(spark: Any, build: Any) -> None:
    rows = spark.sql(
        f"select landed_table, file_name, is_read from {SCHEMA}.stg_qlik_ct__landed_files"
    ).collect()
    read = {(row.landed_table, row.file_name): row.is_read for row in rows}
    assert read[("employees__ct", "part-00000.csv")] is True  # the file with a BOM
    assert read[("order_lines__ct", "part-header-only.csv")] is True
    assert read[("employees__ct", "part-empty.csv")] is False
    assert read[("documents__ct", "part-reordered.csv")] is False
    assert read[("documents__ct", "part-malformed.csv")] is True  # its record is judged


def test_the_idm_event_log_lands_from_csv_files_like_the_seeds(spark: Any, build: Any) -> None:
    """The shipped IDM sample landed as CSV files (not seeds) gives the sample's answers; a
    zero-byte file beside it is kept out with its reason."""
    users = spark.sql(
        f"select pk_string, idu, fname, lname, photo from {SCHEMA}.dim_usr_current"
    ).collect()
    normalized = sorted(
        (tuple(bytes(v) if isinstance(v, bytearray) else v for v in row) for row in users),
        key=repr,
    )
    assert normalized == sorted(IDM_USERS, key=repr)
    accounts = spark.sql(f"select k1, k2, note from {SCHEMA}.dim_acct_current").collect()
    assert sorted(map(tuple, accounts), key=repr) == sorted(IDM_ACCOUNTS, key=repr)
    quarantined = spark.sql(
        f"select raw_key, reason from {SCHEMA}.fct_cdc_quarantine where source_system = 'idm_jdbc'"
    ).collect()
    assert sorted(map(tuple, quarantined), key=repr) == sorted(
        [
            *EXPECTED_IDM_QUARANTINE,
            ("part-empty.csv", "landed file kept out: zero-byte file: nothing to read"),
        ],
        key=repr,
    )


def test_configuration_values_arrive_as_text(spark: Any, build: Any) -> None:
    """qlik_ct_task, idm_jdbc_driver and idm_jdbc_driver_account hold quotes, backslashes and
    SQL: the change log carries them as written (nothing ran), and the driver's own rows are
    still recognised as loopback (the IDM answers equal the sample's, checked above)."""
    found = {
        tuple(row)
        for row in spark.sql(
            f"select distinct source_system, source_instance, order_scope "
            f"from {SCHEMA}.fct_cdc_changes"
        ).collect()
    }
    assert found == {
        ("qlik_ct", HOSTILE_TASK, "qlik:" + HOSTILE_TASK),
        ("idm_jdbc", HOSTILE_DRIVER, "idm:" + HOSTILE_DRIVER),
    }
