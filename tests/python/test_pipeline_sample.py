"""The main job end to end on the shipped sample data (seeds/qlik_ct), in one `dbt build`.

Expected values are worked out by hand from the seed rows (seed 000 rules), not read back from
the models: the sample covers inserts, updates with before-images, delete then re-insert, a key
update, NULLs, several changes per transaction, equal time parts, trimmed masks, a TRUNCATE and
every kind of invalid row. The last tests rerun the build (no-op) and rebuild it from scratch
(identical), and check that `dbt docs generate` documents every model and column.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from sample_expectations import EXPECTED_IDM_QUARANTINE, IDM_ACCOUNTS, IDM_USERS

pytestmark = [pytest.mark.e2e, pytest.mark.spark]

SCHEMA = "sample"
# the package and the sample project that uses it (the per-table models are its own)
PROJECTS = ("cdc_history", "cdc_samples")


# sample_build (conftest): the one build of the shipped samples, in schema `sample`


def _rows(spark: Any, sql: str) -> list[tuple[Any, ...]]:
    return sorted((tuple(row) for row in spark.sql(sql).collect()), key=repr)


def test_current_state_is_baseline_plus_valid_changes(spark: Any, sample_build: Any) -> None:
    employees = _rows(
        spark,
        f"select employee_id, first_name, salary, manager_id, notes "
        f"from {SCHEMA}.dim_employees_current",
    )
    assert employees == sorted(
        [
            (1, "Ann", Decimal("1100.00"), None, None),  # U 103: salary only
            (3, "Cid", Decimal("1300.00"), 1, "rehired, again"),  # D 106 then I 107
            (11, "Dan", Decimal("900.00"), None, None),  # I 101 as 10, key 10->11, mgr NULL
            (21, "Jo", Decimal("650.00"), None, None),  # exact duplicate delivered twice
        ],
        key=repr,
    )
    lines = _rows(
        spark,
        f"select order_id, line_no, sku, quantity from {SCHEMA}.dim_order_lines_current",
    )
    # TRUNCATE 141 ends every earlier line; the U 145 has an odd-length mask (quarantined).
    assert lines == [(502, 1, "SKU-E", 4), (502, 2, "SKU-F", 1)]
    documents = (
        f"select doc_code, title, body, attachment, revised_at from {SCHEMA}.dim_documents_current"
    )
    assert _rows(spark, documents) == SAMPLE_DOCUMENTS


# seeds/qlik_ct/documents*.csv: the hex attachment decoded; C<3> inserted (201) and deleted
# (205), its U 204 quarantined (attachment XYZ is not hex)
SAMPLE_DOCUMENTS = sorted(
    [
        (
            "A,1;'+\"=\\<>",
            'Quoted "title"',
            'first line\nsecond, "quoted" line\n\n  indented last line',  # U 202
            bytes.fromhex("CAFEBABE"),
            datetime(2024, 2, 1, 9, 0),
        ),
        (
            "B-2",
            "Plain, with a comma",
            "short",
            bytes.fromhex("DEADBEEF"),  # U 203
            datetime(2024, 3, 1, 14, 10),
        ),
        (
            "D\\'\"4 = x",
            '<tag attr="v">; a + b</tag>',
            None,
            bytes.fromhex("0A0B"),  # I 206, lower-case hex
            datetime(2024, 3, 1, 14, 25),
        ),
    ],
    key=repr,
)


def test_every_invalid_row_is_quarantined_with_its_reason(spark: Any, sample_build: Any) -> None:
    found = _rows(
        spark,
        f"select raw_key, reason from {SCHEMA}.fct_cdc_quarantine where source_system = 'qlik_ct'",
    )
    expected = sorted(
        [
            ("20240301123000000000000000000000113+U", "bad change_mask: non-hex character in mask"),
            (
                "20240301123000000000000000000000114+U",
                "bad change_mask: bit 22 set but the table has 14 columns",
            ),
            ("20240301123000000000000000000000116+X", "unknown change_oper X"),
            (
                "20240301123000000000000000000000117+I",
                "operation UPDATE disagrees with change_oper I",
            ),
            (
                "20240301123000000000000000000000119+B",
                "orphan before-image: no valid U row has this change_seq",
            ),
            *[
                (
                    "20240301123000000000000000000000120+I",
                    "conflicting duplicate: another row has this change_seq and change_oper",
                )
            ]
            * 2,
            ("20240301123000000000000000000000122+I", "null key value in employee_id"),
            (
                "20240301123000000000000000000000123+I",
                "insert mask does not mark every column: "
                "lacks last_name, salary, hired_on, manager_id, notes",
            ),
            # the full load holds employee 4 twice: neither row is used
            *[(None, "duplicate key: 2 rows of the full load have this key")] * 2,
            ("2024030112301+I", "change_seq is not 35 digits starting with a valid time"),
            ("20240301134000000000000000000000145+U", "bad change_mask: odd-length hex mask"),
            (
                "20240301141500000000000000000000204+U",
                "value of attachment is not valid hex text of a binary value",
            ),
            (
                "20240301141500000000000000000000204+B",
                "orphan before-image: no valid U row has this change_seq",
            ),
            (
                "20240301134000000000000000000000145+B",
                "orphan before-image: no valid U row has this change_seq",
            ),
        ],
        key=repr,
    )
    assert found == expected


def test_change_log_folds_before_images_and_key_updates(spark: Any, sample_build: Any) -> None:
    changes = {
        row["raw_key"]: row
        for row in spark.sql(
            f"select * from {SCHEMA}.fct_cdc_changes where source_table = 'employees'"
        ).collect()
    }
    salary_update = changes["20240301120500000000000000000000103+U"]
    assert salary_update["op"] == "U"
    assert salary_update["changed_columns"] == ["salary"]
    assert salary_update["before_image"]["salary"] == "1000.00"
    assert salary_update["after_image"]["salary"] == "1100.00"
    assert salary_update["has_before_image"] is True

    key_update = changes["20240301121500000000000000000000109+U"]
    assert key_update["pk_string"] == "employee_id=11"
    assert key_update["pk_before"] == {"employee_id": "10"}
    assert key_update["pk_changed"] is True

    placeholder = changes["20240301122000000000000000000000111+U"]
    assert placeholder["op_ts"] is None
    assert "ts_placeholder" in placeholder["flags"]
    assert str(placeholder["effective_at"]) == "2024-03-01 12:20:00"

    delete = changes["20240301122500000000000000000000112+D"]  # untrimmed mask 8000
    assert delete["after_image"] is None
    assert delete["before_image"]["first_name"] == "Rob"
    assert not any(key.endswith("+B") for key in changes), "B rows are folded into their U"


def test_history_tiles_delete_and_reinsert(spark: Any, sample_build: Any) -> None:
    versions = spark.sql(
        f"select valid_from_order_key, valid_to_order_key, is_deleted, salary, change_op "
        f"from {SCHEMA}.dim_employees_history where employee_id = 3 "
        f"order by valid_from_order_key"
    ).collect()
    assert [tuple(version) for version in versions] == [
        ("0" * 35, "20240301121000000000000000000000106", False, Decimal("1200.00"), "I"),
        (
            "20240301121000000000000000000000106",
            "20240301121000000000000000000000107",
            True,
            Decimal("1200.00"),
            "D",
        ),
        ("20240301121000000000000000000000107", None, False, Decimal("1300.00"), "I"),
    ]


def test_a_truncate_ends_every_live_line_showing_the_state_it_ends(
    spark: Any, sample_build: Any
) -> None:
    """TRUNCATE 141 gives every line live before it a deleted version (change_op T) that
    shows the state it ends, its key included (spec F.5: a tombstone keeps the last state),
    as a delete's does: a user filtering the history by key finds it. (501,1), moved to
    (501,3) by 138, and (501,2) deleted by 139 before its re-insert at 140, end only once."""
    truncated = _rows(
        spark,
        f"select order_id, line_no, sku, quantity, unit_price, is_deleted, valid_from_order_key,"
        f" valid_to_order_key from {SCHEMA}.dim_order_lines_history where change_op = 'T'",
    )
    at = "20240301133000000000000000000000141"
    assert truncated == sorted(
        [
            (500, 1, "SKU-A", 3, Decimal("10.00"), True, at, None),  # U 134
            (500, 2, "SKU-B", 1, Decimal("5.50"), True, at, None),  # U 136: shipped_at only
            (501, 2, "SKU-D", 1, Decimal("10.00"), True, at, None),  # I 140
            (501, 3, "SKU-C", 5, Decimal("3.25"), True, at, None),  # U 138: key 1 -> 3
        ],
        key=repr,
    )


@pytest.mark.parametrize(
    ("point", "expected"),
    [
        pytest.param("0" * 35, {1: "1000.00", 2: "1500.00", 3: "1200.00"}, id="baseline only"),
        pytest.param(
            "20240301121000000000000000000000106",
            {1: "1100.00", 2: "1500.00", 10: "900.00"},
            id="right after the delete of 3",
        ),
        pytest.param(
            "20240301121500000000000000000000109",
            {1: "1100.00", 2: "1500.00", 3: "1300.00", 11: "900.00"},
            id="right after the key update 10 to 11",
        ),
        pytest.param(
            "2024-03-01 12:05:00",
            {1: "1100.00", 2: "1500.00", 3: "1200.00", 10: "900.00"},
            id="timestamp: both updates of one transaction",
        ),
        pytest.param(
            "2024-03-01 12:04:59.99",
            {1: "1000.00", 2: "1500.00", 3: "1200.00", 10: "900.00"},
            id="timestamp: a hundredth before that transaction",
        ),
        pytest.param(
            "latest",
            {1: "1100.00", 3: "1300.00", 11: "900.00", 21: "650.00"},
            id="latest",
        ),
    ],
)
def test_as_of_function_answers_any_point(
    spark: Any, sample_build: Any, point: str, expected: dict[int, str]
) -> None:
    for function in ("employees_as_of", "employees_as_of_consistent"):
        # Qlik change tables mark no transaction ends: every change is a boundary, so the
        # transaction-consistent mode agrees with the plain one at every point
        found = {
            row["employee_id"]: str(row["salary"])
            for row in spark.sql(f"select * from {SCHEMA}.{function}('{point}')").collect()
        }
        assert found == expected, function


def test_as_of_gives_the_previous_image_from_the_before_image(
    spark: Any, sample_build: Any
) -> None:
    row = spark.sql(
        f"select last_op, previous_image from "
        f"{SCHEMA}.employees_as_of('20240301120500000000000000000000105') where employee_id = 2"
    ).collect()[0]
    assert row["last_op"] == "U"
    assert row["previous_image"]["first_name"] == "Bob"
    assert row["previous_image"]["notes"] == "part-time"


@pytest.mark.parametrize(
    "point",
    [
        "last tuesday",
        "now",  # Spark's special timestamps: the clock, not a point of the history
        "today",
        "epoch",
        "yesterday",
        "2024-13-45",
        "2024-03-01 10:42:00\\",
        "",
        "2024-03-01; drop table x",
    ],
)
def test_as_of_rejects_a_point_it_cannot_read(spark: Any, sample_build: Any, point: str) -> None:
    literal = "'" + point.replace("\\", "\\\\").replace("'", "\\'") + "'"
    with pytest.raises(Exception, match="the point must be latest, an order_key"):
        spark.sql(f"select * from {SCHEMA}.employees_as_of({literal})").collect()


def test_as_of_rejects_a_null_point(spark: Any, sample_build: Any) -> None:
    with pytest.raises(Exception, match=r"the point must be latest, an order_key .* got NULL"):
        spark.sql(f"select * from {SCHEMA}.employees_as_of(null)").collect()


@pytest.mark.parametrize(
    "point",
    ["2024-03-01", "2024-03-01T12:05", "2024-03-01 12:05:00.123456789", "2024-03-01 12:05:00Z"],
)
def test_as_of_reads_timestamps_in_every_documented_form(
    spark: Any, sample_build: Any, point: str
) -> None:
    spark.sql(f"select * from {SCHEMA}.employees_as_of('{point}')").collect()


# ---------------------------------------------------------------------------------------------
# IDM JDBC event log (seeds/idm_jdbc): expected values worked out by hand from the event rows.


def test_idm_current_state_merges_per_field_events(spark: Any, sample_build: Any) -> None:
    users = _rows(
        spark, f"select pk_string, idu, fname, lname, photo from {SCHEMA}.dim_usr_current"
    )
    assert users == sorted(IDM_USERS, key=repr)
    accounts = _rows(spark, f"select k1, k2, note from {SCHEMA}.dim_acct_current")
    assert accounts == sorted(IDM_ACCOUNTS, key=repr)


@pytest.mark.parametrize(
    ("record_id", "expected"),
    [
        pytest.param(103, {1: ("Jack", "Frost")}, id="after the type-1 insert"),
        pytest.param(110, {}, id="after the delete"),
        pytest.param(203, {1: ("John", "Doe"), 7: ("John", "Frost")}, id="per-field update merges"),
        pytest.param(
            206,
            {1: ("John", "Doe"), 7: ("John", "Doe")},
            id="superseded value still applies; query-back without values changes nothing",
        ),
        pytest.param(207, {1: ("John", "Doe")}, id="after the loopback delete"),
    ],
)
def test_idm_as_of_record(
    spark: Any, sample_build: Any, record_id: int, expected: dict[int, tuple[str, str]]
) -> None:
    point = str(record_id).zfill(20)
    found = {
        row["idu"]: (row["fname"], row["lname"])
        for row in spark.sql(f"select * from {SCHEMA}.usr_as_of('{point}')").collect()
    }
    assert found == expected


def test_idm_flags_follow_the_precedence_rules(spark: Any, sample_build: Any) -> None:
    flags = {
        row["raw_key"]: set(row["flags"])
        for row in spark.sql(
            f"select raw_key, flags from {SCHEMA}.fct_cdc_changes where source_system = 'idm_jdbc'"
        ).collect()
    }
    assert "superseded_by:205" in flags["204"]  # R1: type 8 on the same field
    assert "superseded_by:206" in flags["205"]  # R2: type 6 on the same row
    assert "queryback_target_deleted" in flags["206"]  # R3: deleted by 207
    assert "is_loopback" in flags["207"]
    assert "publisher_error" in flags["218"]
    assert "table_key_has_padding" in flags["212"]
    assert "resolved_from_snapshot" in flags["111"]
    # the snapshot holds idu=4 twice (quarantined): present, so not deleted; not resolved
    assert "resolved_from_snapshot" not in flags["224"]
    assert "queryback_target_deleted" not in flags["224"]
    looked_up = spark.sql(
        f"select needs_lookup from {SCHEMA}.fct_cdc_changes "
        "where source_system = 'idm_jdbc' and raw_key = '224'"
    ).collect()
    assert [row["needs_lookup"] for row in looked_up] == [True]
    assert "101,102,103" in flags, "one trigger firing's per-field rows roll up"


def test_idm_invalid_rows_are_quarantined(spark: Any, sample_build: Any) -> None:
    found = _rows(
        spark,
        f"select raw_key, reason from {SCHEMA}.fct_cdc_quarantine where source_system = 'idm_jdbc'",
    )
    assert found == sorted(EXPECTED_IDM_QUARANTINE, key=repr)


# the columns that record when a row was loaded (the Kafka models carry staging's load time
# as staged_at, and the first copy's as first_staged_at)
LOAD_TIMES = ("loaded_at", "change_loaded_at", "staged_at", "first_staged_at")


def _quoted(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


# the lines of a view's `show table extended` entry that change whenever it is re-created
VIEW_CREATION_LINES = ("Created Time:", "Last Access:", "Table Properties:")


def _table_property(spark: Any, table: str, key: str) -> str | None:
    rows = spark.sql(f"show tblproperties {table}").collect()
    return next((row["value"] for row in rows if row["key"] == key), None)


def _snapshot(spark: Any) -> dict[str, Any]:
    """Every relation of the scenario schema: a table as (row count, two order-free sums of
    row hashes), load times left out; a view as its stored definition (view text, output
    columns, schema). A row is its JSON text (NULL and '' differ), hashed with xxhash64 and
    Murmur3, summed as decimals (no overflow): a changed, missing or extra row, a relation
    added or dropped, or a view defined otherwise changes the snapshot. A view's rows follow
    from its text and the tables it reads (the views here call no clock and no random), so
    reading them again would prove nothing more and cost most of the time: every row read
    back took 145 s, the row hashes of every relation 70 s (unions of twelve), the tables'
    hashes and the views' text 12 s warm, 32 s cold (BENCHMARKS.md section 11)."""
    snapshot: dict[str, Any] = {}
    tables: list[str] = []
    for entry in spark.sql(f"show table extended in {SCHEMA} like '*'").collect():
        if entry["isTemporary"]:  # dbt's session-scoped __dbt_tmp views
            continue
        lines = entry["information"].splitlines()
        if "Type: VIEW" in lines:
            snapshot[entry["tableName"]] = [
                line for line in lines if not line.startswith(VIEW_CREATION_LINES)
            ]
        else:
            tables.append(entry["tableName"])
    parts = []
    for position, name in enumerate(tables):
        columns = [c for c in spark.table(f"{SCHEMA}.{name}").columns if c not in LOAD_TIMES]
        row = f"to_json(struct({', '.join(_quoted(c) for c in columns)}))"
        parts.append(
            f"select {position} as relation, count(*) as row_count,"
            f" sum(cast(xxhash64({row}) as decimal(38, 0))) as xxhash_sum,"
            f" sum(cast(hash({row}) as decimal(38, 0))) as murmur_sum"
            f" from {SCHEMA}.{_quoted(name)}"
        )
    for start in range(0, len(parts), 12):
        for row in spark.sql(" union all ".join(parts[start : start + 12])).collect():
            snapshot[tables[row["relation"]]] = tuple(row)[1:]
    return snapshot


def test_as_of_var_another_point_runs_the_key_test_and_a_backslash_is_a_clear_error(
    spark: Any, run_dbt: Callable[..., Any], sample_build: Any
) -> None:
    """At 'latest' the as-of view's primary_key test is off (the current state's tests prove
    its keys there); at any other point it runs: a build of dim_employees_as_of at the first
    change's order_key tests its key, and passes.

    var as_of reaches SQL as one literal (sql_string_literal): a trailing backslash neither
    breaks the view's statement nor escapes its quote; reading it refuses the point by name.
    The view is then built again with the default point (one scenario: each var change costs
    a full parse)."""
    [point] = spark.sql(
        f"select min(valid_from_order_key) from {SCHEMA}.dim_employees_history"
        " where valid_from_order_key > '0'"
    ).collect()[0]
    # its unit tests pin the default point
    result = run_dbt(
        ["build", "--select", "dim_employees_as_of", "--exclude", "test_type:unit"],
        schema=SCHEMA,
        vars={"as_of": point},
    )
    ran = {r.node.name: r.status for r in result.result.results}
    # our generic tests are named with their package in generated YAML (docs/package.md)
    assert ran.get("cdc_history_primary_key_dim_employees_as_of_pk_string") == "pass", ran

    hostile = "2024-03-01 10:42:00\\"
    run_dbt(["run", "--select", "dim_employees_as_of"], schema=SCHEMA, vars={"as_of": hostile})
    with pytest.raises(Exception, match="the point must be latest, an order_key") as raised:
        spark.sql(f"select * from {SCHEMA}.dim_employees_as_of").collect()
    assert hostile in str(raised.value)
    run_dbt(["run", "--select", "dim_employees_as_of"], schema=SCHEMA)
    spark.sql(f"select * from {SCHEMA}.dim_employees_as_of").collect()


def test_rerun_changes_nothing_a_changed_seed_table_is_staged_and_full_refresh_is_identical(
    spark: Any, run_dbt: Callable[..., Any], sample_build: Any
) -> None:
    """A second `run` over the same landed rows changes no relation and stages nothing, and
    runs no model's query: every incremental model is skipped as `nothing new` and every
    table and view kept as `unchanged` (docs/incremental-runs.md: the same code
    over the same inputs); a `run --full-refresh` rebuilds every relation to the same rows
    (load times aside). Each table is compared by its row count and row-hash sums, each
    view by its definition (_snapshot).

    A staging over a seed follows the seed's table, not its file: every seed's load
    recorded which file (and seed config) it loaded (cdc_record_seed_loaded); a row added
    to a seed's table with another record (what `dbt seed` of an edited file does) is
    staged by the next `run`, and `dbt seed` of the file puts the table and its record back
    (the full refresh then rebuilds the staging without the row)."""
    before = _snapshot(spark)
    assert before["stg_qlik_ct__employees"][0] > 0 and len(before) > 100, before
    assert any(line.startswith("View Text:") for line in before["dim_employees_as_of"])
    staged_before = spark.sql(
        f"select count(*), max(loaded_at) from {SCHEMA}.stg_qlik_ct__employees"
    ).collect()[0]

    # `run`, not `build`: the data tests already passed on these very rows in sample_build, and
    # the outputs are compared here; 180-odd tests twice more would cost minutes
    rerun = run_dbt(["run"], schema=SCHEMA)
    ran = {r.node.name: r.message for r in rerun.result.results if r.node.resource_type == "model"}
    assert len(ran) > 100, ran
    assert {
        name: message
        for name, message in ran.items()
        if message not in ("nothing new", "unchanged")
    } == {}
    assert _snapshot(spark) == before
    staged_after = spark.sql(
        f"select count(*), max(loaded_at) from {SCHEMA}.stg_qlik_ct__employees"
    ).collect()[0]
    assert tuple(staged_after) == tuple(staged_before), "a rerun must stage nothing new"

    # every seed load recorded what it loaded: one record a seed, distinct across seeds
    seeds = {
        name: _table_property(spark, name, "cdc.written")
        for name in {
            f"{r.node.schema}.{r.node.alias}"
            for r in sample_build.result.results
            if r.node.resource_type == "seed"
        }
    }
    assert len(seeds) > 10 and all(seeds.values()), seeds
    assert len(set(seeds.values())) == len(seeds), seeds

    seed_table = "raw_qlik_ct.employees__ct"
    columns = spark.table(seed_table).columns
    edited = {"header__change_seq": "'20991231235959000000000000000000999'", "employee_id": "999"}
    spark.sql(
        f"insert into {seed_table} select"
        f" {', '.join(edited.get(c, _quoted(c)) for c in columns)} from {seed_table}"
        " where header__change_seq = '20240301120000000000000000000000101'"
    )
    spark.sql(f"alter table {seed_table} set tblproperties ('cdc.written' = 'an edited file')")
    staged = run_dbt(["run", "--select", "stg_qlik_ct__employees"], schema=SCHEMA)
    assert [r.message for r in staged.result.results] != ["nothing new"]
    [(count, added)] = spark.sql(
        f"select count(*), count_if(employee_id = 999) from {SCHEMA}.stg_qlik_ct__employees"
    ).collect()
    assert (count, added) == (staged_before[0] + 1, 1)

    run_dbt(["seed", "--select", "path:seeds/qlik_ct/employees__ct.csv"], schema=SCHEMA)
    assert _table_property(spark, seed_table, "cdc.written") == seeds[seed_table]
    assert spark.sql(f"select count_if(employee_id = 999) from {seed_table}").first()[0] == 0

    run_dbt(["run", "--full-refresh"], schema=SCHEMA)
    assert _snapshot(spark) == before


def test_docs_describe_every_model_and_column(
    run_dbt: Callable[..., Any], sample_build: Any
) -> None:
    run_dbt(["docs", "generate"], schema=SCHEMA)
    target = Path(os.environ["DBT_TARGET_PATH"])
    manifest = json.loads((target / "manifest.json").read_text())
    catalog = json.loads((target / "catalog.json").read_text())
    missing: list[str] = []
    for unique_id, node in manifest["nodes"].items():
        if node["resource_type"] != "model" or node["package_name"] not in PROJECTS:
            continue
        if not node["description"].strip():
            missing.append(f"{node['name']}: no description")
        built = catalog["nodes"].get(unique_id)
        assert built is not None, f"{node['name']} is not in the catalog"
        documented = {name.lower(): column for name, column in node["columns"].items()}
        for column in built["columns"]:
            described = documented.get(column.lower(), {}).get("description", "").strip()
            if not described:
                missing.append(f"{node['name']}.{column}: no description")
    assert not missing, "undocumented:\n" + "\n".join(missing)


# ---------------------------------------------------------------------------------------------
# OpenEdge CDC (seeds/openedge_cdc, spec D), worked out by hand from the seed rows

LONG_COMMENT = "The first 32 K of a long comment, then the rest of it."


def test_openedge_worked_example_d11_in_the_change_log(spark: Any, sample_build: Any) -> None:
    rows = _rows(
        spark,
        f"select order_key, op, pk_string, txn_id, changed_columns, before_image, after_image,"
        f" order_scope, has_before_image from {SCHEMA}.fct_cdc_changes"
        f" where source_system = 'openedge_cdc' and pk_string = 'custnum=7'",
    )
    lee = {"custnum": "7", "name": "Lee", "comments": None}
    assert rows == [
        ("00000000000000001001", "I", "custnum=7", "501", None, None,
         {**lee, "balance": "0.00"}, "oe:sports2020:2", False),
        ("00000000000000001002", "U", "custnum=7", "502", ["balance"],
         {**lee, "balance": "0.00"}, {**lee, "balance": "50.00"}, "oe:sports2020:2", True),
        ("00000000000000001003", "D", "custnum=7", "503", None,
         {**lee, "balance": "50.00"}, None, "oe:sports2020:2", False),
    ]  # fmt: skip


def test_openedge_current_state(spark: Any, sample_build: Any) -> None:
    customers = _rows(
        spark, f"select custnum, name, balance, comments from {SCHEMA}.dim_oe_customer_current"
    )
    # 7 deleted; 8 moved to 9 (level-3 key update), cleared by the field delete 1006, then
    # updated without its before image (1008); 12's tracking row was purged (flag, applied);
    # 10, 13, 14, 15: invalid parts; 11: continuation without its first record (held)
    assert customers == sorted(
        [
            (9, "Ann B", Decimal("20.00"), None),
            (12, "No Tracking Row", Decimal("3.00"), "its tracking row was purged"),
        ],
        key=repr,
    )
    items = _rows(spark, f"select itemnum, itemname, tags, descr from {SCHEMA}.dim_item_current")
    # 1: split at extent element 3; 2 deleted; 3 removed by the drop of partition 2 (2006);
    # 4: a first record whose continuation never came (held)
    assert items == [(1, "Ball", "red;blue;green;white", "a bigger ball")]
    visits = _rows(spark, f"select recid from {SCHEMA}.dim_visit_current")
    assert visits == [(5002,)]  # level 0: only which _Recid exist


def test_openedge_history_shows_the_split_record_and_the_field_delete(
    spark: Any, sample_build: Any
) -> None:
    versions = _rows(
        spark,
        f"select pk_string, valid_from_order_key, is_deleted, balance, comments"
        f" from {SCHEMA}.dim_oe_customer_history where custnum in (8, 9)",
    )
    assert versions == [
        ("custnum=8", "00000000000000001004", False, Decimal("10.00"), LONG_COMMENT),
        ("custnum=8", "00000000000000001005", True, Decimal("10.00"), LONG_COMMENT),
        ("custnum=9", "00000000000000001005", False, Decimal("10.00"), LONG_COMMENT),
        ("custnum=9", "00000000000000001006", False, Decimal("10.00"), None),
        ("custnum=9", "00000000000000001008", False, Decimal("20.00"), None),
    ]


@pytest.mark.parametrize(
    ("table", "point", "expected"),
    [
        ("oe_customer", "1002", [(7, Decimal("50.00"))]),
        ("oe_customer", "1005", [(9, Decimal("10.00"))]),
        ("oe_customer", "2024-03-01 08:06:00", [(7, Decimal("50.00"))]),
        ("item", "2005", [(1, "red;blue;green;white"), (3, None)]),
        ("item", "2006", [(1, "red;blue;green;white")]),
        ("item", "2024-03-01 08:06:00", [(1, "red;blue;green;white"), (2, "wood")]),
        ("visit", "2024-03-01 08:06:00", [(5001,)]),
        ("visit", "3003", [(5001,), (5002,)]),
    ],
)
def test_openedge_as_of_by_sequence_and_by_time(
    spark: Any, sample_build: Any, table: str, point: str, expected: list[tuple[Any, ...]]
) -> None:
    columns = {"oe_customer": "custnum, balance", "item": "itemnum, tags", "visit": "recid"}[table]
    assert _rows(spark, f"select {columns} from {SCHEMA}.{table}_as_of('{point}')") == expected


def test_openedge_invalid_and_held_rows_are_quarantined(spark: Any, sample_build: Any) -> None:
    rows = _rows(
        spark,
        f"select source_table, raw_key, reason from {SCHEMA}.fct_cdc_quarantine"
        f" where source_system = 'openedge_cdc'",
    )
    conflicting_record = (
        "conflicting duplicate: another row has this change sequence, operation and "
        "continuation position"
    )
    conflicting_tracking = (
        "conflicting duplicate: another tracking row has this table number, change sequence "
        "and operation"
    )
    expected = [
        (None, "_Source-Table-Number=99;_Change-Sequence=1;_Operation=1",
         "_Source-Table-Number 99 is no table of var cdc_tables"),
        ("oe_customer", "_Change-Sequence=1009",
         "held: a tracking row whose change record has not arrived (level 3)"),
        ("oe_customer", "_Change-Sequence=1010", "its tracking row is quarantined"),
        ("oe_customer", "_Change-Sequence=1011",
         "held: a continuation record (_Continuation-Position 2) whose first record has not "
         "arrived"),
        ("oe_customer", "_Change-Sequence=1013", "its change record is quarantined"),
        ("oe_customer", "_Change-Sequence=1013;_Operation=1;_Continuation-Position=0",
         "value of balance does not convert to decimal(10,2)"),
        ("oe_customer", "_Change-Sequence=1014", "its tracking row is quarantined"),
        ("oe_customer", "_Change-Sequence=1021;_Operation=1;_Continuation-Position=0",
         conflicting_record),
        ("oe_customer", "_Change-Sequence=1021;_Operation=1;_Continuation-Position=0",
         conflicting_record),
        ("oe_customer", "_Source-Table-Number=2;_Change-Sequence=1010;_Operation=13",
         "_Operation 13 is not an operation code (1 to 12, spec D.2)"),
        ("oe_customer", "_Source-Table-Number=2;_Change-Sequence=1014;_Operation=1",
         conflicting_tracking),
        ("oe_customer", "_Source-Table-Number=2;_Change-Sequence=1014;_Operation=1",
         conflicting_tracking),
        ("item", "_Change-Sequence=2007",
         "partition operation without a partition id: the rows it removes cannot be "
         "identified"),
        ("item", "_Change-Sequence=2012;_Operation=3;_Continuation-Position=0",
         "before-update (3) row in a level-2 table (only level 3 records before images, "
         "spec D.5)"),
        ("item", "_Change-Sequence=2013",
         "held: the first record of a split (_Fragment 1, _ArrayIndex 0) whose continuation "
         "has not arrived"),
        ("item", "_Source-Table-Number=3;_Change-Sequence=2012;_Operation=3",
         "before-update (3) tracking row in a level-2 table (only level 3 records before "
         "images)"),
        ("visit", "_Source-Table-Number=4;_Change-Sequence=3006;_Operation=4",
         "level-0 change without _Recid: the only identity such a table has"),
    ]  # fmt: skip
    assert rows == sorted(expected, key=repr)


def test_openedge_flags_and_control_rows(spark: Any, sample_build: Any) -> None:
    rows = _rows(
        spark,
        f"select cast(order_key as int), coalesce(op, control_op), pk_string, flags,"
        f" needs_lookup from {SCHEMA}.fct_cdc_changes where source_system = 'openedge_cdc'"
        f" and (size(flags) > 0 or control_op is not null or needs_lookup)",
    )
    removed, cleared = "removed_by_partition_operation:6", "cleared_by_field_delete:comments"
    tenant, deallocate = "tenant_id:5", "PARTITION_DEALLOCATE"
    assert rows == sorted(
        [
            (1004, "I", "custnum=8", ["split_record_merged"], False),
            (1006, "SCHEMA_FIELD_DROP", None, ["oe_operation:5"], False),
            (1006, "U", "custnum=9", [cleared], False),
            (1007, "SCHEMA_FIELD_ADD", None, ["oe_operation:12"], False),
            (1008, "U", "custnum=9", ["before_image_missing"], False),
            (1020, "I", "custnum=12", ["tracking_row_missing"], False),
            (2003, "U", "itemnum=1", ["split_record_merged"], False),
            (2006, "PARTITION_DROP", None, ["oe_operation:6", "partition_id:2"], False),
            (2006, "D", "itemnum=3", [removed, "partition_id:2"], False),
            (2008, deallocate, None, ["oe_operation:8", "partition_id:8"], False),
            (2009, deallocate, None, ["oe_operation:9", "partition_id:9", tenant], False),
            (2010, "PARTITION_DROP", None, ["oe_operation:10", "partition_id:10", tenant], False),
            (2011, "PARTITION_DROP", None, ["oe_operation:11", "partition_id:11"], False),
            (3001, "I", "recid=5001", [], True),
            (3002, "U", "recid=5001", [], True),
            (3003, "I", "recid=5002", [], True),
            (3005, "U", "recid=5002", ["field_map_at_level_0"], True),
        ],
        key=repr,
    )  # fmt: skip


def test_state_check_in_one_query_finds_what_one_by_one_finds(
    spark: Any, sample_build: Any
) -> None:
    """state_check.check_all (the proofs' check of many points in one union query) answers
    relation by relation what `check` does: a point whose expected state is wrong is named,
    with its own difference, and the right ones pass. Nine points: two queries of eight."""
    from state_check import Expectation, check, check_all, fetch_state

    from cdc_simulator.table_model import ColumnSpec, TableSpec

    spec = TableSpec(
        name="employees",
        columns=(ColumnSpec("employee_id", "int32"), ColumnSpec("last_name", "string")),
        key_columns=("employee_id",),
    )
    latest, problems = fetch_state(spark, spec, f"{SCHEMA}.employees_as_of('latest')")
    assert latest and not problems
    some_key = next(iter(latest))
    wrong = {**latest, some_key: (some_key[0], "not the right name")}
    expectations = [
        Expectation(f"{SCHEMA}.employees_as_of('latest')", latest, f"right {n}") for n in range(8)
    ] + [Expectation(f"{SCHEMA}.employees_as_of('latest')", wrong, "wrong")]
    failures = check_all(spark, spec, expectations)
    one_by_one = check(spark, spec, expectations[-1].relation, wrong, "wrong")
    assert failures == one_by_one and failures, failures
    assert "(wrong)" in failures[0] and "not the right name" in "\n".join(failures)


def _compiled_test(sample_build: Any, test_name: str, model: str) -> Any:
    """The sample build's node of the generic test `test_name` on `model`, compiled."""
    return next(
        result.node
        for result in sample_build.result.results
        if result.node.resource_type == "test"
        and getattr(getattr(result.node, "test_metadata", None), "name", None) == test_name
        and result.node.attached_node in {f"model.{project}.{model}" for project in PROJECTS}
    )


def test_matches_point_in_time_names_a_missing_and_a_doubled_row(
    spark: Any, sample_build: Any
) -> None:
    """The data test `matches_point_in_time` (tests/generic) can fail, both ways, for the
    model it is on and for the live view it also compares (`also`), and on the model's own
    key: its compiled query from the sample build, run on a copy of dim_employees_current
    that lacks one key's row, holds another key's twice and holds a copy of a third key's
    row with a NULL key, and a copy of dim_employees_live that lacks the third key's row and
    holds the first key's twice, returns exactly those differences (each with its side, the
    relation it was compared with and the number of copies) and the two key problems of the
    model (the key twice, the NULL key); on the models themselves, none."""
    from pyspark.sql import functions as F

    node = _compiled_test(sample_build, "matches_point_in_time", "dim_employees_current")
    current, live = f"{SCHEMA}.dim_employees_current", f"{SCHEMA}.dim_employees_live"
    assert current in node.compiled_code and live in node.compiled_code
    assert spark.sql(node.compiled_code).collect() == []
    first, second, third = (
        row.pk_string
        for row in spark.sql(
            f"select pk_string from {current} order by pk_string limit 3"
        ).collect()
    )
    base = spark.table(current)
    (
        base.where(F.col("pk_string") != first)
        .unionByName(base.where(F.col("pk_string") == second))
        .unionByName(
            base.where(F.col("pk_string") == third).withColumn(
                "pk_string", F.lit(None).cast("string")
            )
        )
        .createOrReplaceTempView("drifted_employees_current")
    )
    spark.sql(
        "create or replace temporary view drifted_employees_live as "
        f"select * from {live} where pk_string != '{third}' "
        f"union all select * from {live} where pk_string = '{first}'"
    )
    drifted = node.compiled_code.replace(current, "drifted_employees_current").replace(
        live, "drifted_employees_live"
    )
    found = spark.sql(drifted).collect()
    assert sorted(
        (row.difference, row.compared_relation, row.copies, row.pk_string or "(NULL)")
        for row in found
    ) == sorted(
        [
            ("only in dim_employees_current", "dim_employees_current", 1, second),
            ("only in dim_employees_current", "dim_employees_current", 1, "(NULL)"),
            ("only in employees_as_of", "dim_employees_current", 1, first),
            ("only in dim_employees_live", "dim_employees_live", 1, first),
            ("only in employees_as_of", "dim_employees_live", 1, third),
            ("key twice in dim_employees_current", "dim_employees_current", 2, second),
            ("NULL key in dim_employees_current", "dim_employees_current", 1, "(NULL)"),
        ]
    ), found


def test_a_chain_of_key_moves_longer_than_the_limit_stops_the_query(
    spark: Any, sample_build: Any
) -> None:
    """cdc_state_images follows a chain of key moves for up to var key_move_chain_limit
    moves, rounded up to a power of two, and stops the query, naming the key and the var,
    on a longer chain. The dbt unit test `test_as_of_follows_a_chain_of_key_moves` (limit
    3, so four moves are followed) as the sample build compiled it, its images replaced by
    a row whose key moves four times (7 to 8, 9, 10, 11): key 11 shows key 7's first name;
    with a fifth move (to 12), the query stops naming key 12."""
    node = next(
        result.node
        for result in sample_build.result.results
        if result.node.resource_type == "unit_test"
        and result.node.name == "test_as_of_follows_a_chain_of_key_moves"
    )
    fixture = "__dbt__cte__int_employees__change_images"
    compiled = node.compiled_code
    assert f"from {fixture}" in compiled, compiled

    def as_of_over_moves(moves: int) -> list[Any]:
        """The compiled as_of on key 7's insert (first name Ann), then `moves` key moves."""
        images = [("c0", "000", 7, "I", True)]
        for move in range(1, moves + 1):
            change, order_key = f"c{move}", f"{move:03d}"
            images += [(change, order_key, 6 + move, "K", False)]
            images += [(change, order_key, 7 + move, "U", True)]
        rows = " union all ".join(
            f"select '{change}' as change_id, '{order_key}' as order_key,"
            f" {key} as employee_id, '{oper}' as image_oper, {exists} as row_exists"
            for change, order_key, key, oper, exists in images
        )
        spark.sql(
            "create or replace temporary view chain_of_moves as"
            " select change_id, 'qlik_ct' as source_system, 'employees' as source_table,"
            " 'qlik:t' as order_scope, order_key, cast(null as timestamp) as effective_at,"
            " concat('employee_id=', employee_id) as pk_string, image_oper,"
            " false as is_before_image, row_exists, employee_id,"
            " if(image_oper = 'I', 'Ann', null) as first_name,"
            " cast(null as string) as last_name, cast(null as decimal(10, 2)) as salary,"
            " cast(null as date) as hired_on, cast(null as int) as manager_id,"
            " cast(null as string) as notes, image_oper = 'I' as image_complete,"
            " if(image_oper = 'I', array('employee_id', 'first_name'), array('employee_id'))"
            " as present_columns, cast(null as timestamp) as loaded_at"
            f" from ({rows})"
        )
        return spark.sql(compiled.replace(f"from {fixture}", "from chain_of_moves")).collect()

    [row] = as_of_over_moves(4)
    assert (row.pk_string, row.first_name) == ("employee_id=11", "Ann"), row
    with pytest.raises(Exception, match="employees: more than 4 key moves in a row") as raised:
        as_of_over_moves(5)
    assert "lead to key employee_id=12; raise var key_move_chain_limit (now 3)" in str(raised.value)


def test_validity_is_contiguous_names_broken_intervals_and_keys(
    spark: Any, sample_build: Any
) -> None:
    """The data test `validity_is_contiguous` (tests/generic), which also checks the
    history's key, can fail on each thing it checks: its compiled query from the sample
    build, run on a copy of dim_employees_history with one version twice (two versions of
    the key starting together), one key's first version ending before its next starts (a
    gap) and one key's versions under a NULL key, returns those versions with what is wrong;
    on the history itself, nothing."""
    from pyspark.sql import functions as F

    node = _compiled_test(sample_build, "validity_is_contiguous", "dim_employees_history")
    history = f"{SCHEMA}.dim_employees_history"
    assert history in node.compiled_code
    assert spark.sql(node.compiled_code).collect() == []
    base = spark.table(history)
    versions = base.groupBy("pk_string").count().orderBy("pk_string")
    twice, gapped = (row.pk_string for row in versions.where("count > 1").limit(2).collect())
    nulled = versions.where("count = 1").first().pk_string
    gap_start = (
        base.where(F.col("pk_string") == gapped)
        .orderBy("valid_from_order_key")
        .first()
        .valid_from_order_key
    )
    drifted = (
        base.unionByName(base.where((F.col("pk_string") == twice) & F.col("is_current")))
        .withColumn(
            "valid_to_order_key",
            F.when(
                (F.col("pk_string") == gapped) & (F.col("valid_from_order_key") == gap_start),
                F.concat(F.col("valid_to_order_key"), F.lit("-early")),
            ).otherwise(F.col("valid_to_order_key")),
        )
        .withColumn(
            "pk_string",
            F.when(F.col("pk_string") == nulled, F.lit(None).cast("string")).otherwise(
                F.col("pk_string")
            ),
        )
    )
    drifted.createOrReplaceTempView("drifted_employees_history")
    found = spark.sql(node.compiled_code.replace(history, "drifted_employees_history")).collect()
    together = "versions of the key starting together"
    assert sorted((row.history_key or "", row.problem) for row in found) == sorted(
        [
            ("", "NULL key"),
            (gapped, "does not end where the next version starts"),
            (twice, together),
            (twice, together + "; does not end where the next version starts"),
        ]
    ), found


def test_rows_satisfy_names_each_broken_condition_and_key(spark: Any, sample_build: Any) -> None:
    """The data test `rows_satisfy` (tests/generic) on fct_cdc_changes can fail on a condition
    and on each of its keys: its compiled query from the sample build, run on the log with
    three rows added (an exact copy of one change, a copy of another under a new change_id,
    a copy of a third whose op is not a row operation), names for every offending row the
    checks it breaks, and the originals of the copied keys too; on the log itself, none."""
    from pyspark.sql import functions as F

    node = _compiled_test(sample_build, "rows_satisfy", "fct_cdc_changes")
    log = f"{SCHEMA}.fct_cdc_changes"
    assert log in node.compiled_code
    assert spark.sql(node.compiled_code).collect() == []
    base = spark.table(log)
    first, second, third = (
        row.change_id
        for row in base.where("op in ('I', 'U', 'D')")
        .select("change_id")
        .orderBy("change_id")
        .limit(3)
        .collect()
    )
    drifted = (
        base.unionByName(base.where(F.col("change_id") == first))
        .unionByName(
            base.where(F.col("change_id") == second).withColumn(
                "change_id", F.concat(F.col("change_id"), F.lit("-copy"))
            )
        )
        .unionByName(base.where(F.col("change_id") == third).withColumn("op", F.lit("X")))
    )
    drifted.createOrReplaceTempView("drifted_cdc_changes")
    found = spark.sql(node.compiled_code.replace(log, "drifted_cdc_changes")).collect()
    position, identity = "one change of a key at a position", "change_id unique"
    assert sorted(
        (row.change_id, row.op == "X", sorted(row.failed_checks)) for row in found
    ) == sorted(
        [
            (first, False, sorted([identity, position])),
            (first, False, sorted([identity, position])),
            (second, False, [position]),
            (second + "-copy", False, [position]),
            (third, False, sorted([identity, position])),
            (third, True, sorted([identity, "op accepted", "op xor control_op", position])),
        ]
    )


def test_full_snapshot_sample_follows_the_rule(spark: Any, sample_build: Any) -> None:
    """seeds/full_snapshot/price_list_extracts.csv, worked by hand (docs/full-snapshots.md):
    2024-03-01 is the baseline (A1, B2, C3 inserted); 03-02 updates B2 (price and stock),
    lacks C3 (deleted) and adds D4; 03-03 brings C3 back (stock 80) and clears D4's price. A1
    is twice in 03-03 with other values: both rows are quarantined and A1, unknown there,
    keeps its state (no change); B2's two identical rows are one; E5 (stock 'many') and the
    row without a key are quarantined, as is the 'yesterday' row."""
    changes = _rows(
        spark,
        f"select order_key, op, pk_string, is_snapshot, changed_columns"
        f" from {SCHEMA}.fct_cdc_changes where source_system = 'full_snapshot'",
    )
    assert changes == [
        ("20240301000000000000", "I", "sku=A1", True, ["sku", "title", "price", "in_stock"]),
        ("20240301000000000000", "I", "sku=B2", True, ["sku", "title", "price", "in_stock"]),
        ("20240301000000000000", "I", "sku=C3", True, ["sku", "title", "price", "in_stock"]),
        ("20240302000000000000", "D", "sku=C3", False, None),
        ("20240302000000000000", "I", "sku=D4", False, ["sku", "title", "price", "in_stock"]),
        ("20240302000000000000", "U", "sku=B2", False, ["price", "in_stock"]),
        ("20240303000000000000", "I", "sku=C3", False, ["sku", "title", "price", "in_stock"]),
        ("20240303000000000000", "U", "sku=D4", False, ["price"]),
    ]
    current = _rows(
        spark, f"select sku, title, price, in_stock from {SCHEMA}.dim_price_list_current"
    )
    teapot = 'Teapot, "Earl Grey" edition'
    assert current == [
        ("A1", "Kettle", Decimal("19.90"), 5),
        ("B2", "Toaster", Decimal("27.50"), 3),
        ("C3", "Mug", Decimal("4.50"), 80),
        ("D4", teapot, None, 7),
    ]
    at_noon = _rows(
        spark, f"select sku, in_stock from {SCHEMA}.price_list_as_of('2024-03-02 12:00:00')"
    )
    assert at_noon == [("A1", 5), ("B2", 3), ("D4", 7)]
    assert _rows(spark, f"select sku from {SCHEMA}.price_list_as_of('2024-02-29')") == []
    quarantined = _rows(
        spark,
        f"select raw_key, reason from {SCHEMA}.fct_cdc_quarantine"
        " where source_system = 'full_snapshot'",
    )
    day_3 = "2024-03-03 00:00:00"
    assert quarantined == [
        ("2024-03-03 00:00:00:", "null key value in sku"),
        *[(f"{day_3}:sku=A1", f"duplicate key: 2 rows of snapshot {day_3} have this key")] * 2,
        ("2024-03-03 00:00:00:sku=E5", "value of in_stock does not convert to int"),
        ("yesterday:sku=F6", "snapshot id yesterday (from the column extracted_at) is not a time"),
    ]  # fmt: skip
