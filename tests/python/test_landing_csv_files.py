"""End to end, files mode with CSV (spec A, hex-text masks): the shipped sample change tables
and baselines are landed as a Replicate file target writes them, `<root>/<table>__ct/` and
`<root>/<table>/` holding `part-*.csv` with a header row, registered as external tables by
`register_landed_tables`, and built by ONE `dbt build` shared by every test of this module.

Landed CSV is all text, so `cdc_tables` carries `column_types` for every non-string data column
(the seeds yml's types). The expected values below are written out by hand from the CSV rows in
seeds/qlik_ct/, not computed by the pipeline's code:

employees (baseline 1 Ann, 2 Bob, 3 Cid):
  101 I 10 Dan | 103 U Ann salary 1000->1100 | 105 U Bob->Rob, notes->NULL | 106 D 3
  107 I 3 Cid 1300 'rehired, again' | 109 U key 10->11 | 111 U 11 manager_id->NULL (1970 ts)
  112 D 2 (mask 8000, trailing zero byte) | 121 I 21 Jo (delivered twice, identical)
  quarantined: 113 mask ZZ, 114 bit 22 (000040), 2024030112301 short change_seq, 116 oper X,
  117 I/UPDATE, 119 B without U, 120 I twice with different images, 122 null key,
  123 I whose mask lacks columns; the baseline's two rows of key 4
order_lines (baseline (500,1) SKU-A, (500,2) SKU-B):
  131/132 I (501,1), (501,2) | 134, 136 U | 138 key update (501,1)->(501,3) | 139 D (501,2)
  140 I (501,2) | 141 TRUNCATE | 142 I (502,1) SKU-E 4 | 143 I (502,2) SKU-F 1
  quarantined: 145 U mask 801 (odd length), so 145 B is an orphan before-image

The last two tests append files: one with a new change, then a run (incremental staging),
which changes the current state; then one read only through the landed table, to see when the
registration refreshes it. They must stay the last tests of the module, in this order.
"""

from __future__ import annotations

import csv
import shutil
from collections import Counter
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml

from python_udfs.change_mask import encode_hex_change_mask

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

# the repository's sample project: its tables (cdc_tables) and its seeds
SAMPLES_DIR = Path(__file__).resolve().parents[2] / "samples"
SEEDS = SAMPLES_DIR / "seeds" / "qlik_ct"
SCHEMA = "landed_csv"
RAW_SCHEMA = "landed_csv_raw"
LANDED = (
    "employees__ct",
    "employees",
    "order_lines__ct",
    "order_lines",
    "documents__ct",
    "documents",
)

BUILD = ["build", "--exclude", "test_type:unit"]
PROJECT_VARS = yaml.safe_load((SAMPLES_DIR / "dbt_project.yml").read_text())["vars"]

# The project's Qlik tables only (the other formats' models stay disabled: this scenario tests
# the Qlik CSV landing), given column_types (landed CSV is all text).
CDC_TABLES: dict[str, dict[str, Any]] = {
    "documents": PROJECT_VARS["cdc_tables"]["documents"],
    "employees": {
        "source_system": "qlik_ct",
        "source_schema": "HR",
        "key_columns": ["employee_id"],
        "column_types": {
            "employee_id": "int",
            "salary": "decimal(10,2)",
            "hired_on": "date",
            "manager_id": "int",
        },
    },
    "order_lines": {
        "source_system": "qlik_ct",
        "source_schema": "SALES",
        "key_columns": ["order_id", "line_no"],
        "column_types": {
            "line_no": "int",
            "order_id": "bigint",
            "quantity": "int",
            "unit_price": "decimal(12,2)",
            "shipped_at": "timestamp",
        },
    },
}

EMPLOYEE_TYPES = {
    "employee_id": "int",
    "first_name": "string",
    "last_name": "string",
    "salary": "decimal(10,2)",
    "hired_on": "date",
    "manager_id": "int",
    "notes": "string",
}
EMPLOYEE_COLUMNS = ", ".join(EMPLOYEE_TYPES)
ORDER_LINE_TYPES = {
    "line_no": "int",
    "order_id": "bigint",
    "sku": "string",
    "quantity": "int",
    "unit_price": "decimal(12,2)",
    "shipped_at": "timestamp",
}

ANN = (1, "Ann", "Lee", Decimal("1100.00"), date(2020, 1, 15), None, None)
ROB = (2, "Rob", "Ray", Decimal("1500.00"), date(2019, 6, 1), 1, None)
CID_FIRST = (3, "Cid", "Moe", Decimal("1200.00"), date(2021, 9, 30), 1, None)
CID_REHIRED = (3, "Cid", "Moe", Decimal("1300.00"), date(2021, 9, 30), 1, "rehired, again")
DAN_10 = (10, "Dan", "Kim", Decimal("900.00"), date(2024, 3, 1), 1, None)
DAN_11 = (11, "Dan", "Kim", Decimal("900.00"), date(2024, 3, 1), None, None)
JO = (21, "Jo", "Jay", Decimal("650.00"), date(2024, 3, 1), None, None)

FINAL_EMPLOYEES = {ANN, CID_REHIRED, DAN_11, JO}
FINAL_ORDER_LINES = {
    (1, 502, "SKU-E", 4, Decimal("2.00"), None),
    (2, 502, "SKU-F", 1, Decimal("7.00"), None),
}

DOCUMENT_TYPES = {
    "doc_code": "string",
    "title": "string",
    "body": "string",
    "attachment": "binary",
    "revised_at": "timestamp",
}
# documents__ct.csv read as Replicate's file target wrote it: "" is a quote, a quoted line
# break is part of the value, the hex attachment is decoded
FINAL_DOCUMENTS = {
    (
        "A,1;'+\"=\\<>",
        'Quoted "title"',
        'first line\nsecond, "quoted" line\n\n  indented last line',
        bytes.fromhex("CAFEBABE"),
        datetime(2024, 2, 1, 9, 0),
    ),
    (
        "B-2",
        "Plain, with a comma",
        "short",
        bytes.fromhex("DEADBEEF"),
        datetime(2024, 3, 1, 14, 10),
    ),
    (
        "D\\'\"4 = x",
        '<tag attr="v">; a + b</tag>',
        None,
        bytes.fromhex("0A0B"),
        datetime(2024, 3, 1, 14, 25),
    ),
}

CONFLICTING = "conflicting duplicate: another row has this change_seq and change_oper"
ORPHAN = "orphan before-image: no valid U row has this change_seq"
EXPECTED_QUARANTINE = Counter(
    {
        ("employees__ct", "20240301123000000000000000000000113+U"): 1,
        ("employees__ct", "20240301123000000000000000000000114+U"): 1,
        ("employees__ct", "2024030112301+I"): 1,
        ("employees__ct", "20240301123000000000000000000000116+X"): 1,
        ("employees__ct", "20240301123000000000000000000000117+I"): 1,
        ("employees__ct", "20240301123000000000000000000000119+B"): 1,
        ("employees__ct", "20240301123000000000000000000000120+I"): 2,
        ("employees__ct", "20240301123000000000000000000000122+I"): 1,
        ("employees__ct", "20240301123000000000000000000000123+I"): 1,
        ("employees", None): 2,
        ("order_lines__ct", "20240301134000000000000000000000145+U"): 1,
        ("order_lines__ct", "20240301134000000000000000000000145+B"): 1,
        ("documents__ct", "20240301141500000000000000000000204+U"): 1,
        ("documents__ct", "20240301141500000000000000000000204+B"): 1,
    }
)
EXPECTED_REASONS = {
    "20240301123000000000000000000000113+U": {"bad change_mask: non-hex character in mask"},
    "20240301123000000000000000000000114+U": {
        "bad change_mask: bit 22 set but the table has 14 columns"
    },
    "2024030112301+I": {"change_seq is not 35 digits starting with a valid time"},
    "20240301123000000000000000000000116+X": {"unknown change_oper X"},
    "20240301123000000000000000000000117+I": {"operation UPDATE disagrees with change_oper I"},
    "20240301123000000000000000000000119+B": {ORPHAN},
    "20240301123000000000000000000000120+I": {CONFLICTING},
    "20240301123000000000000000000000122+I": {"null key value in employee_id"},
    "20240301123000000000000000000000123+I": {
        "insert mask does not mark every column: "
        "lacks last_name, salary, hired_on, manager_id, notes"
    },
    None: {"duplicate key: 2 rows of the full load have this key"},
    "20240301134000000000000000000000145+U": {"bad change_mask: odd-length hex mask"},
    "20240301134000000000000000000000145+B": {ORPHAN},
    "20240301141500000000000000000000204+U": {
        "value of attachment is not valid hex text of a binary value"
    },
    "20240301141500000000000000000000204+B": {ORPHAN},
}

# the appended change: employee 21's salary 650.00 -> 700.00 (bit 10 = salary, see below)
NEW_SEQ = "20240301124500000000000000000000150"
NEW_TRANSACTION = "000000000000000000000000000000C1"
NEW_TIME = "2024-03-01 12:45:00"


def dbt_vars(root: Path) -> dict[str, object]:
    return {
        "qlik_ct_landing": "files",
        "qlik_ct_landing_root": str(root),
        "qlik_ct_landing_format": "csv",
        "qlik_ct_schema": RAW_SCHEMA,
        "cdc_tables": CDC_TABLES,
    }


def rows(spark: Any, sql: str) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in spark.sql(sql).collect()]


@pytest.fixture(scope="module")
def landing_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The four shipped CSVs, byte for byte, where a Replicate file target lands them."""
    root = tmp_path_factory.mktemp("landing_csv")
    for name in LANDED:
        folder = root / name
        folder.mkdir()
        shutil.copyfile(SEEDS / f"{name}.csv", folder / "part-00000.csv")
    return root


@pytest.fixture(scope="module")
def first_build(landing_root: Path, run_dbt: Any) -> Path:
    """The module's one `dbt build` over the landed CSVs."""
    # Unit tests pin logic and run in the sample scenario; some override cdc_tables, which
    # the --vars of this scenario would shadow, so they are left out here.
    run_dbt(BUILD, schema=SCHEMA, vars=dbt_vars(landing_root))
    return landing_root


@pytest.mark.parametrize(
    ("relation", "expected_types", "expected"),
    [
        pytest.param(
            f"{SCHEMA}.dim_employees_current",
            EMPLOYEE_TYPES,
            FINAL_EMPLOYEES,
            id="employees: 1 Ann 1100, 3 Cid rehired, 11 Dan no manager, 21 Jo",
        ),
        pytest.param(
            f"{SCHEMA}.dim_documents_current",
            DOCUMENT_TYPES,
            FINAL_DOCUMENTS,
            id="documents: quoted keys and values, values over lines, hex attachments",
        ),
        pytest.param(
            f"{SCHEMA}.dim_order_lines_current",
            ORDER_LINE_TYPES,
            FINAL_ORDER_LINES,
            id="order_lines: after the truncate only (502,1) and (502,2), 145 quarantined",
        ),
    ],
)
def test_current_state_is_typed_and_right(
    first_build: Path,
    spark: Any,
    relation: str,
    expected_types: dict[str, str],
    expected: set[tuple[Any, ...]],
) -> None:
    frame = spark.sql(f"select {', '.join(expected_types)} from {relation}")
    types = {field.name: field.dataType.simpleString() for field in frame.schema.fields}
    assert types == expected_types
    actual = [
        tuple(bytes(value) if isinstance(value, bytearray) else value for value in row)
        for row in frame.collect()
    ]
    assert len(actual) == len(set(actual)), f"duplicate rows in {relation}: {actual}"
    assert set(actual) == expected


def test_quarantine_reasons_per_raw_key(first_build: Path, spark: Any) -> None:
    quarantined = rows(
        spark,
        f"select landed_table, raw_key, reason from {SCHEMA}.fct_cdc_quarantine "
        f"where source_system = 'qlik_ct'",
    )
    assert Counter((landed, raw_key) for landed, raw_key, _ in quarantined) == EXPECTED_QUARANTINE
    reasons: dict[str, set[str]] = {}
    for _, raw_key, reason in quarantined:
        reasons.setdefault(raw_key, set()).update(reason.split("; "))
    assert reasons == EXPECTED_REASONS


@pytest.mark.parametrize(
    ("point", "expected"),
    [
        pytest.param(
            "20240301121000000000000000000000106",
            {ANN, ROB, DAN_10},
            id="change_seq right after the delete of employee 3",
        ),
        pytest.param(
            "2024-03-01 12:05:00",
            {ANN, ROB, CID_FIRST, DAN_10},
            id="time 12:05:00, the two updates of transaction A2 included",
        ),
        pytest.param(
            "20240301121000000000000000000000107",
            {ANN, ROB, CID_REHIRED, DAN_10},
            id="change_seq of the re-insert of employee 3",
        ),
    ],
)
def test_employees_as_of(
    first_build: Path, spark: Any, point: str, expected: set[tuple[Any, ...]]
) -> None:
    actual = rows(spark, f"select {EMPLOYEE_COLUMNS} from {SCHEMA}.employees_as_of('{point}')")
    assert len(actual) == len(set(actual))
    assert set(actual) == expected


def employee_21_change(oper: str, operation: str, mask: str, salary: str) -> list[str]:
    """One employees__ct row of the appended change, headers first, as Replicate lands it."""
    headers = [NEW_SEQ, oper, mask, "lsn:00000150", operation, NEW_TRANSACTION, NEW_TIME]
    return [*headers, "21", "Jo", "Jay", salary, "2024-03-01", "", ""]


def write_change_file(path: Path, records: list[list[str]]) -> None:
    header = (SEEDS / "employees__ct.csv").read_text().splitlines()[0].split(",")
    with path.open("w", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\r\n")
        writer.writerow(header)
        writer.writerows(records)


def test_appended_file_is_staged_incrementally(first_build: Path, spark: Any, run_dbt: Any) -> None:
    """Runs last: a new file with one UPDATE (its B and U) is picked up by the next run, and
    only its two rows are staged; every row staged before keeps its loaded_at. In the same
    run order_lines lands a second full-load file (line (503, 1), SKU-G) and no change row:
    the change log gains its snapshot insert (a file added beside the logged ones is a later
    part of the baseline, whose rows the log writes again, even with nothing newly staged;
    a changed or vanished file would make it a reload: test_qlik_reload.py)."""
    full_load_sql = (
        f"select after_image['sku'] from {SCHEMA}.int_qlik_ct__changes_canonical"
        " where source_table = 'order_lines' and is_snapshot"
    )
    assert sorted(rows(spark, full_load_sql)) == [("SKU-A",), ("SKU-B",)]
    staged_sql = (
        "select raw_key, row_hash, cast(loaded_at as string) from {schema}.stg_qlik_ct__{table}"
    )
    employees_before = set(rows(spark, staged_sql.format(schema=SCHEMA, table="employees")))
    order_lines_before = set(rows(spark, staged_sql.format(schema=SCHEMA, table="order_lines")))

    salary_mask = encode_hex_change_mask([10])  # ordinal 10: 7 header columns, then salary 4th
    assert salary_mask == "0004"
    write_change_file(
        first_build / "employees__ct" / "part-00001.csv",
        [
            employee_21_change("B", "BEFOREIMAGE", "", "650.00"),
            employee_21_change("U", "UPDATE", salary_mask, "700.00"),
        ],
    )

    header = (SEEDS / "order_lines.csv").read_text().splitlines()[0]
    (first_build / "order_lines" / "part-00001.csv").write_text(f"{header}\n1,503,SKU-G,3,7.00,\n")

    # `run`: the data tests passed on these tables in the first build
    run_dbt(["run"], schema=SCHEMA, vars=dbt_vars(first_build))
    assert sorted(rows(spark, full_load_sql)) == [("SKU-A",), ("SKU-B",), ("SKU-G",)]

    employees_after = set(rows(spark, staged_sql.format(schema=SCHEMA, table="employees")))
    assert employees_before <= employees_after, "a row staged before changed or vanished"
    gained = employees_after - employees_before
    assert sorted(raw_key for raw_key, _, _ in gained) == [f"{NEW_SEQ}+B", f"{NEW_SEQ}+U"]
    order_lines_after = set(rows(spark, staged_sql.format(schema=SCHEMA, table="order_lines")))
    assert order_lines_after == order_lines_before

    current = set(rows(spark, f"select {EMPLOYEE_COLUMNS} from {SCHEMA}.dim_employees_current"))
    jo_raised = (21, "Jo", "Jay", Decimal("700.00"), date(2024, 3, 1), None, None)
    assert current == {ANN, CID_REHIRED, DAN_11, jo_raised}
    quarantined = rows(
        spark,
        f"select landed_table, raw_key from {SCHEMA}.fct_cdc_quarantine "
        f"where source_system = 'qlik_ct'",
    )
    assert Counter(quarantined) == EXPECTED_QUARANTINE


def test_the_first_registration_of_a_session_cdc_dbt_started_skips_the_refresh(
    first_build: Path, spark: Any, run_dbt: Any
) -> None:
    """Runs after the appended file: `cdc-dbt` marks a session it starts for one command
    (setting cdc.landed_tables.unread), and that command's registration keeps an unchanged
    registration without `refresh table` (0.17 s a folder), since no query of such a session
    has listed a landed folder. The test session has (the builds above read employees__ct),
    so marking it by hand shows both halves: after a file lands, a marked registration
    leaves the table's cached listing as it was (the file's rows unseen: the refresh was
    skipped) and clears the mark; the next, unmarked, refreshes and the rows are seen. A
    skip taken without the mark, or a mark never cleared, fails here."""
    landed = f"{RAW_SCHEMA}.employees__ct"
    count = f"select count(*) from {landed}"
    [(before,)] = rows(spark, count)
    write_change_file(
        first_build / "employees__ct" / "part-00002.csv",
        [employee_21_change("B", "BEFOREIMAGE", "", "700.00")],
    )
    register = ["run-operation", "register_landed_tables"]

    spark.conf.set("cdc.landed_tables.unread", "true")
    run_dbt(register, schema=SCHEMA, vars=dbt_vars(first_build))
    assert spark.conf.get("cdc.landed_tables.unread") == "false"
    assert rows(spark, count) == [(before,)], "the marked registration refreshed the table"

    run_dbt(register, schema=SCHEMA, vars=dbt_vars(first_build))
    assert rows(spark, count) == [(before + 1,)], "the unmarked registration did not refresh"
