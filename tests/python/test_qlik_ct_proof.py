"""End-to-end proof: simulated Qlik change tables in, `dbt build`, point-in-time state out.

The truth is `cdc_simulator`: a seeded model of the two configured tables (employees,
order_lines) that knows the state after every change. It lands what Qlik Replicate would write
(spec A) as Parquet in two batches:

* batch 1: the full load plus most changes, split over files in shuffled order, with a few
  exact duplicates, but WITHOUT a few changes ("late rows");
* batch 2: half of the remaining changes, the late rows (change_seq older than batch 1's
  newest) and exact duplicates of rows batch 1 already delivered;
* batch 3: the newest changes, in order: what an incremental run usually receives.

After each batch the same `dbt build` runs (files mode); the pipeline's answers are compared
with the model's, typed (Decimal, date, UTC datetime) and keyed by the key columns:
`<table>_as_of('latest')` after batch 1; after batch 3 `<table>_as_of(point)` for change
sequences chosen inside a transaction, right after a key update, a delete and a re-insert, on
a late row, and for 'yyyy-MM-dd HH:mm:ss.SS' times (every change whose change_seq time part
is <= that time), the versions of `dim_<table>_history` valid at each change sequence, then
`dim_<table>_current` against the final state. The tables are employees, order_lines and
documents (hostile text, binary values); beside them the shipped IDM sample is landed as
Parquet files (idm_jdbc_landing: files) and must answer as the seeds do.

Batch 2 holds late rows, so its run rebuilds the histories; batch 3 has none, so its run
recomputes only the keys it touches and rewrites only the partitions they fall in (minute
buckets here, `history_bucket_length: 12`): the test checks that the oldest bucket's files
were left alone, and that the result equals a `--full-refresh` rebuild. The same for the
Qlik change log (`int_qlik_ct__changes_logged`, bucketed by the same setting): batch 3's run
leaves each table's oldest bucket of changes and its full-load rows alone (no full-load file
landed), and the log equals its full refresh.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.parquet as pq
import pytest
import yaml
from proof_points import Point, expectations_at, reinsert_positions, time_points
from sample_expectations import IDM_USERS
from state_check import Expectation, check, check_all, check_tables

from cdc_simulator.qlik_ct import CtRow, change_rows, emit, write_parquet
from cdc_simulator.table_model import (
    DOCUMENTS,
    EMPLOYEES,
    ORDER_LINES,
    Change,
    Key,
    Simulation,
    State,
    TableSpec,
    replay,
    simulate,
)

# the repository's sample project: its tables (cdc_tables) and its seeds
SAMPLES_DIR = Path(__file__).resolve().parents[2] / "samples"
SEED = 20240301
CHANGES = 480
KEYS = 60
SCHEMA = "proof"
BATCH_1_SHARE = 0.8
LATE_ROWS = 3
# the two classic tables and documents: hostile text (quotes, line breaks, "" and NULL, 50 K
# characters) and binary values, the same model the vendor-CSV test lands as CSV
TABLES = (EMPLOYEES, ORDER_LINES, DOCUMENTS)


# the proof's tables and the IDM sample's, as the project configures them: no other format's
# models are enabled, so none reads a source this scenario does not land
PROJECT_TABLES = yaml.safe_load((SAMPLES_DIR / "dbt_project.yml").read_text())["vars"]["cdc_tables"]
CDC_TABLES = {name: PROJECT_TABLES[name] for name in ("employees", "order_lines", "documents")}
CDC_TABLES |= {name: PROJECT_TABLES[name] for name in ("usr", "acct")}


def dbt_vars(root: Path) -> dict[str, object]:
    return {
        "cdc_tables": CDC_TABLES,
        "qlik_ct_landing": "files",
        "qlik_ct_landing_root": str(root),
        "qlik_ct_landing_format": "parquet",
        "qlik_ct_schema": "proof_raw",
        "idm_jdbc_landing": "files",
        "idm_jdbc_landing_root": str(root / "idm"),
        "idm_jdbc_landing_format": "parquet",
        "idm_jdbc_schema": "proof_raw_idm",
        "history_bucket_length": 12,
    }


IDM_TYPES = {
    "event_log": {
        "record_id": pa.int64(),
        "event_type": pa.int32(),
        "event_time": pa.timestamp("us"),
    },
    "usr_snapshot": {"idu": pa.int32()},
}


def land_idm_sample(root: Path) -> None:
    """The shipped IDM sample (seeds/idm_jdbc) as Parquet files, typed like the seeds."""
    for name, types in IDM_TYPES.items():
        table = pa_csv.read_csv(
            SAMPLES_DIR / "seeds" / "idm_jdbc" / f"{name}.csv",
            convert_options=pa_csv.ConvertOptions(column_types=types, strings_can_be_null=True),
        )
        (root / "idm" / name).mkdir(parents=True)
        pq.write_table(table, root / "idm" / name / "part-00000.parquet")


# ---------------------------------------------------------------------------------------------
# the scenario (pure Python, checked without Spark below)


@dataclass
class Scenario:
    sim: Simulation
    batch_1: list[Change]
    late: list[Change]
    batch_2: list[Change]
    batch_3: list[Change]
    duplicates: dict[str, list[CtRow]]
    after_batch_1: State
    points: list[Point] = field(default_factory=list)


def touched_keys(change: Change, spec: TableSpec) -> set[Key]:
    return {key for key in (change.key_before(spec), change.key_after(spec)) if key is not None}


def choose_late(sim: Simulation, batch_1: list[Change], rng: random.Random) -> list[Change]:
    """Changes of batch 1 held back to batch 2: not key updates, and no later batch-1 change
    touches their keys, so the state batch 1 alone implies is unambiguous."""
    candidates = []
    for index in range(len(batch_1) // 2, len(batch_1) - 1):
        change = batch_1[index]
        spec = sim.spec(change.table)
        if change.is_key_update(spec):
            continue
        keys = touched_keys(change, spec)
        later = batch_1[index + 1 :]
        if any(other.table == change.table and touched_keys(other, spec) & keys for other in later):
            continue
        candidates.append(change)
    by_op: dict[str, list[Change]] = {}
    for change in candidates:
        by_op.setdefault(change.op, []).append(change)
    chosen = [rng.choice(group) for _, group in sorted(by_op.items())][:LATE_ROWS]
    assert chosen, "no change of batch 1 can be held back; change SEED"
    return sorted(chosen, key=lambda change: change.change_seq)


def choose_points(sim: Simulation, late: list[Change]) -> list[Point]:
    """Change sequences and times that probe the hard cases, with the model's state at each."""
    changes, transactions = sim.changes, sim.transactions()
    middle = len(changes) // 2

    def pick(label: str, matches: list[Change]) -> tuple[str, str]:
        assert matches, f"the simulation has no change for point '{label}'; change SEED"
        return label, matches[len(matches) // 2].change_seq

    picked = []
    inside = [t[len(t) // 2 - 1] for t in transactions if len(t) >= 3]
    picked.append(pick("inside a multi-change transaction", inside))
    for table in ("employees", "order_lines"):
        spec = sim.spec(table)
        key_updates = [c for c in changes if c.table == table and c.is_key_update(spec)]
        picked.append(pick(f"right after a key update of {table}", key_updates))
    deletes = [c for c in changes[middle:] if c.op == "D"]
    picked.append(pick("right after a delete", deletes))
    reinserts = [changes[i] for i in reinsert_positions(sim, changes)]
    picked.append(pick("right after a re-insert of a deleted key", reinserts))
    picked.append(pick("on a late (out-of-order) row", late))
    updates = [c for c in changes if c.op == "U" and not c.is_key_update(sim.spec(c.table))]
    picked.append(pick("on a B/U pair", updates))
    points = [Point(label, seq, sim.state_at(seq)) for label, seq in picked]
    return points + time_points(sim)


def build_scenario() -> Scenario:
    sim = simulate(CHANGES, keys=KEYS, seed=SEED, tables=TABLES)
    rng = random.Random(SEED)
    cut, delivered = 0, 0
    for transaction in sim.transactions():
        if delivered >= BATCH_1_SHARE * len(sim.changes):
            break
        delivered += len(transaction)
        cut = delivered
    batch_1_range = sim.changes[:cut]
    late = choose_late(sim, batch_1_range, rng)
    late_seqs = {change.change_seq for change in late}
    batch_1 = [change for change in batch_1_range if change.change_seq not in late_seqs]
    rest = sim.changes[cut:]
    batch_2, batch_3 = rest[: len(rest) // 2], rest[len(rest) // 2 :]
    assert batch_2 and batch_3, "batch 2 or 3 is empty; lower BATCH_1_SHARE"

    duplicates: dict[str, list[CtRow]] = {spec.name: [] for spec in sim.tables}
    for change in rng.sample(batch_1, 6):
        duplicates[change.table].extend(change_rows(change, sim.spec(change.table)))
    batch_1_rows = emit(batch_1, sim.tables)
    for name, rows in batch_1_rows.items():
        duplicates[name].extend(rng.sample(rows, 2))  # single rows, a lone B possibly

    after_batch_1 = replay(sim.tables, sim.baseline, batch_1)
    scenario = Scenario(sim, batch_1, late, batch_2, batch_3, duplicates, after_batch_1)
    scenario.points = choose_points(sim, late)
    return scenario


def land_batch_1(root: Path, scenario: Scenario) -> None:
    rows = emit(scenario.batch_1, scenario.sim.tables)
    write_parquet(
        root,
        rows,
        scenario.sim.baseline,
        tables=TABLES,
        files=3,
        shuffle=True,
        duplicates=0.02,
        seed=SEED,
    )


def land_batch_2(root: Path, scenario: Scenario) -> None:
    rows = emit([*scenario.batch_2, *scenario.late], scenario.sim.tables)
    for name, extra in scenario.duplicates.items():
        rows[name].extend(extra)
    write_parquet(root, rows, tables=TABLES, files=2, shuffle=True, seed=SEED + 1)


def land_batch_3(root: Path, scenario: Scenario) -> None:
    write_parquet(
        root, emit(scenario.batch_3, scenario.sim.tables), tables=TABLES, files=1, seed=SEED + 2
    )


def test_proof_scenario_is_well_formed() -> None:
    """The generator half of the proof, without Spark: every probe exists and means what its
    label says, and the batches deliver every change."""
    scenario = build_scenario()
    sim = scenario.sim
    newest_of_batch_1 = max(change.change_seq for change in scenario.batch_1)
    assert scenario.late and all(c.change_seq < newest_of_batch_1 for c in scenario.late)
    delivered = [*scenario.batch_1, *scenario.late, *scenario.batch_2, *scenario.batch_3]
    newest_before_batch_3 = max(c.change_seq for c in [*scenario.batch_1, *scenario.batch_2])
    assert all(c.change_seq > newest_before_batch_3 for c in scenario.batch_3), "3 is in order"
    assert sorted(c.change_seq for c in delivered) == [c.change_seq for c in sim.changes]
    assert any(scenario.duplicates.values())
    assert scenario.after_batch_1 != sim.state_at(newest_of_batch_1), "late rows matter"
    assert replay(sim.tables, sim.baseline, sorted(delivered, key=lambda c: c.change_seq)) == (
        sim.final
    )
    assert len(scenario.points) >= 8
    assert len({point.value for point in scenario.points}) == len(scenario.points)
    for point in scenario.points:
        assert point.expected != sim.baseline, point.label
    by_seq = {change.change_seq: change for change in sim.changes}
    labelled = {point.label: by_seq.get(point.value) for point in scenario.points}
    assert labelled["right after a delete"].op == "D"  # type: ignore[union-attr]
    assert labelled["right after a re-insert of a deleted key"].op == "I"  # type: ignore[union-attr]
    inside = labelled["inside a multi-change transaction"]
    assert inside is not None
    transaction = [c for c in sim.changes if c.transaction_id == inside.transaction_id]
    assert transaction[-1] is not inside, "the point must split its transaction"


@pytest.mark.e2e
@pytest.mark.spark
def test_qlik_change_tables_prove_point_in_time_state(
    tmp_path: Path, spark: Any, run_dbt: Any
) -> None:
    scenario = build_scenario()
    tables = scenario.sim.tables
    root = tmp_path / "landing"

    land_batch_1(root, scenario)
    land_idm_sample(root)
    # `run` for the early batches, `build` (with the data tests) for the last: the tests
    # check the final state, and each `build` of them costs a minute on two cores
    run_dbt(["run"], schema=SCHEMA, vars=dbt_vars(root))
    failures = check_tables(
        spark,
        tables,
        f"{SCHEMA}.{{table}}_as_of('latest')",
        scenario.after_batch_1,
        "after batch 1, late rows not yet delivered",
    )
    assert not failures, "\n".join(failures)
    # the first build wrote the log whole, from every staged row: each table marked by its newest
    assert log_marks(spark, tables) == {
        spec.name: newest_staged_micros(spark, spec.name) for spec in tables
    }

    land_batch_2(root, scenario)
    run_dbt(["run"], schema=SCHEMA, vars=dbt_vars(root))
    oldest_files = {spec.name: oldest_bucket_files(spark, spec.name) for spec in tables}
    oldest_logged = {spec.name: oldest_log_bucket_files(spark, spec.name) for spec in tables}
    full_loads = {spec.name: full_load_bucket_files(spark, spec.name) for spec in tables}

    land_batch_3(root, scenario)
    run_dbt(["build", "--exclude", "test_type:unit"], schema=SCHEMA, vars=dbt_vars(root))
    final = scenario.sim.final
    for spec in tables:
        # one query for the table function at every point, one for the history versions
        failures += check_all(
            spark,
            spec,
            [
                *expectations_at(scenario.points, f"{SCHEMA}.{spec.name}_as_of", spec.name),
                Expectation(f"{SCHEMA}.{spec.name}_as_of('latest')", final[spec.name], "latest"),
            ],
        )
        failures += check_all(
            spark,
            spec,
            [
                Expectation(
                    history_at(spec.name, point.value),
                    point.expected[spec.name],
                    f"history versions valid at {point.label}",
                )
                for point in scenario.points
                if point.value.isdigit()
            ],
        )
        failures += check(
            spark, spec, f"{SCHEMA}.dim_{spec.name}_current", final[spec.name], "final state"
        )
    assert not failures, "\n".join(failures)
    # the IDM sample landed as Parquet files (idm_jdbc_landing: files) answers as the seeds do
    users = spark.sql(
        f"select pk_string, idu, fname, lname, photo from {SCHEMA}.dim_usr_current"
    ).collect()
    assert sorted(
        (tuple(bytes(v) if isinstance(v, bytearray) else v for v in row) for row in users),
        key=repr,
    ) == sorted(IDM_USERS, key=repr)

    for spec in tables:
        bucket, files = oldest_files[spec.name]
        assert oldest_bucket_files(spark, spec.name) == (bucket, files), (
            f"batch 3 (no late rows) rewrote dim_{spec.name}_history's oldest bucket {bucket}"
        )
        bucket, files = oldest_logged[spec.name]
        assert oldest_log_bucket_files(spark, spec.name) == (bucket, files), (
            f"batch 3 rewrote the change log's oldest bucket {bucket} of {spec.name}"
        )
        assert full_load_bucket_files(spark, spec.name) == full_loads[spec.name], (
            f"batch 3 (no full-load file) rewrote the change log's full load of {spec.name}"
        )
    # batches 2 and 3 read the staged rows after the marks, and recorded the newest
    assert log_marks(spark, tables) == {
        spec.name: newest_staged_micros(spark, spec.name) for spec in tables
    }
    histories = {spec.name: history_rows(spark, spec.name) for spec in tables}
    logged = relation_rows(spark, f"{SCHEMA}.int_qlik_ct__changes_logged")
    run_dbt(
        [
            "run",
            "--select",
            "dim_employees_history",
            "dim_order_lines_history",
            "int_qlik_ct__changes_logged",
            "--full-refresh",
        ],
        schema=SCHEMA,
        vars=dbt_vars(root),
    )
    for spec in tables:
        rebuilt = history_rows(spark, spec.name)
        assert histories[spec.name] == rebuilt, f"incremental dim_{spec.name}_history differs"
    assert logged == relation_rows(spark, f"{SCHEMA}.int_qlik_ct__changes_logged"), (
        "the change log written bucket by bucket differs from its full refresh"
    )
    # written whole from every staged row: the marks are the newest staged rows again
    assert log_marks(spark, tables) == {
        spec.name: newest_staged_micros(spark, spec.name) for spec in tables
    }


def log_marks(spark: Any, tables: tuple[TableSpec, ...]) -> dict[str, str | None]:
    """Each table's mark on the Qlik change log (cdc.logged_through.<table>), None if unset."""
    properties = {
        row[0]: row[1]
        for row in spark.sql(f"show tblproperties {SCHEMA}.int_qlik_ct__changes_logged").collect()
    }
    return {spec.name: properties.get(f"cdc.logged_through.{spec.name}") for spec in tables}


def newest_staged_micros(spark: Any, table: str) -> str:
    """The newest load time of a table's staged rows, in microseconds since the epoch."""
    [(micros,)] = spark.sql(
        f"select unix_micros(max(loaded_at)) from {SCHEMA}.stg_qlik_ct__{table}"
    ).collect()
    return str(micros)


def history_at(table: str, order_key: str) -> str:
    """The versions of dim_<table>_history valid at `order_key` that are not deleted."""
    return (
        f"(select * from {SCHEMA}.dim_{table}_history where not is_deleted"
        f" and valid_from_order_key <= '{order_key}'"
        f" and coalesce(valid_to_order_key > '{order_key}', true))"
    )


def oldest_bucket_files(spark: Any, table: str) -> tuple[str, list[str]]:
    """The oldest closed-version partition of dim_<table>_history and the files holding it."""
    relation = f"{SCHEMA}.dim_{table}_history"
    bucket = spark.sql(
        f"select min(valid_to_bucket) from {relation} where valid_to_bucket != 'current'"
    ).first()[0]
    files = spark.sql(
        f"select distinct input_file_name() from {relation} where valid_to_bucket = '{bucket}'"
    ).toArrow()
    return bucket, sorted(files.column(0).to_pylist())


def oldest_log_bucket_files(spark: Any, table: str) -> tuple[str, list[str]]:
    """The oldest bucket of a table's changes in the Qlik change log (the full load's bucket
    of zeros aside) and the files holding it."""
    relation = f"{SCHEMA}.int_qlik_ct__changes_logged"
    where = f"source_table = '{table}' and not is_snapshot"
    bucket = spark.sql(f"select min(log_bucket) from {relation} where {where}").first()[0]
    files = spark.sql(
        f"select distinct input_file_name() from {relation}"
        f" where {where} and log_bucket = '{bucket}'"
    ).toArrow()
    return bucket, sorted(files.column(0).to_pylist())


def full_load_bucket_files(spark: Any, table: str) -> list[str]:
    """The files holding a table's full-load rows in the Qlik change log."""
    files = spark.sql(
        f"select distinct input_file_name() from {SCHEMA}.int_qlik_ct__changes_logged"
        f" where source_table = '{table}' and is_snapshot"
    ).toArrow()
    found = sorted(files.column(0).to_pylist())
    assert found, f"no full-load rows of {table} in the change log"
    return found


def relation_rows(spark: Any, relation: str) -> list[str]:
    """Every row of a relation as JSON text, sorted, for comparing two builds."""
    frame = spark.sql(f"select to_json(struct(*)) from {relation}").toArrow()
    return sorted(frame.column(0).to_pylist())


def history_rows(spark: Any, table: str) -> list[tuple[Any, ...]]:
    """Every row of dim_<table>_history, sorted, for comparing two builds."""
    frame = spark.sql(f"select * from {SCHEMA}.dim_{table}_history")
    rows = frame.toArrow().to_pylist()
    return sorted(tuple(str(value) for value in row.values()) for row in rows)
