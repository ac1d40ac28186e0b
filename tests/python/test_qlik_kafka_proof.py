"""End-to-end proof for Qlik Kafka messages: simulated topics in, `dbt build`, point-in-time
state out (spec B).

The truth is `cdc_simulator`: the same seeded table model as the change-table proof, published
by `cdc_simulator.qlik_kafka` as Qlik Replicate's Kafka target would (metadata messages per
table version, REFRESH baseline, data messages with and without the atMSG envelope, hex masks
in big-endian byte order, columns not captured (also by key updates, whose new key carries
the old key's values), LOB columns outside changeMask, DELETEs from
data or beforeData, transaction fields) on three partitions per topic, so offsets disagree
with change order. Tables: the project's two Kafka tables, customer and order_item (their
topics are the sources the scaffold wrote), with simulated columns: customer widened to 10
columns (hostile text in name), order_item with 9 (a date, a timestamp, an NCLOB and a BLOB),
so masks take two bytes. Each table gets three versions; each later version moves a column
to the last ordinal, so a mask decoded with the wrong version names the wrong column.

* batch 1: the metadata of versions 1 and 2, the REFRESH baseline, the first changes WITHOUT a
  few late ones, split over files in shuffled order, some file rows landed twice and some
  messages produced twice (new offsets); landed in two runs, the second with no metadata, so
  it reads only its own files and decodes only its own messages (the staging skips the
  files staged before and the decoded messages are appended to, and their compiled SQL
  says so), copies of the first run's messages among them;
* batch 2: version 3's metadata and a copy of an older one, landed alone first (every
  message decoded again), then the remaining changes, the late changes (older than batch 1's
  newest), and copies of batch-1 messages produced again (appended: the metadata was seen
  by the write before).

After batch 1 and after batch 2, `int_qlik_kafka__transaction_boundaries` (read from the
judgement, not the log) equals the boundaries `transaction_boundaries.py` works out from the
log by the spec's rule: after batch 1 the cut at the first open transaction is in force.
After every run, `int_qlik_kafka__message_copies_judged` equals the judgement
`kafka_judgement.py` works out in Python from the spec's rules over the decoded messages:
batch 1's second run appends to it (its new messages are copies of judged changes at their
place or come after every judged message: qlik_kafka_judgement_plan), batch 2's data, with
the late changes among them, judges every message again.
After batch 1's first run, `<table>_as_of('latest')` equals the model after its changes; after
its second, `<table>_as_of('latest')` equals the model without the late changes and the
transactions the late changes leave open are exactly those flagged `transaction_incomplete`.
After batch 2, `<table>_as_of(point)` equals the model at change sequences inside a
transaction, after key updates, a delete, a re-insert, a late change and around each version
change, and at times; `dim_<table>_current` equals the final state; nothing is quarantined
and no transaction is left incomplete. A third build lands the same messages as JSON Lines
files with a bad line and a file of other fields, both quarantined, on topics that are not
identifiers (`src.o'sales-customer`: a dot, a hyphen and a quote), in a copy of the project
scaffolded for them (cdc_simulator/project_copy.py): files mode reads any folder name,
exactly as named.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from kafka_judgement import judgement_differences
from proof_points import Point, expectations_at, reinsert_positions, time_points
from state_check import check, check_all, check_tables
from test_qlik_ct_proof import choose_late
from transaction_boundaries import boundary_differences

from cdc_simulator.project_copy import project_with_tables
from cdc_simulator.qlik_kafka import KafkaOptions, Message, Producer, write_topics
from cdc_simulator.table_model import (
    Change,
    ColumnSpec,
    Simulation,
    State,
    TableSpec,
    replay,
    simulate,
    widened,
)

SEED = 20240302
CHANGES = 420
KEYS = 50
SCHEMA = "kafka_proof"
BATCH_1_SHARE = 0.6
# The project's two Kafka tables (their topics are the sources the scaffold wrote), with
# simulated columns: customer widened to 10 columns and order_item with 9, so masks take two
# bytes; hostile text in customer.name, an NCLOB and a BLOB in order_item.
CUSTOMER = TableSpec(
    name="customer",
    columns=(
        ColumnSpec("id", "int32"),
        ColumnSpec("name", "string", hostile=True),
        ColumnSpec("email", "string", nullable=True),
        ColumnSpec("phone", "string", nullable=True),
    ),
    key_columns=("id",),
)
ORDER_ITEM = TableSpec(
    name="order_item",
    columns=(
        ColumnSpec("order_id", "int32"),
        ColumnSpec("item_no", "int32"),
        ColumnSpec("qty", "int64"),
        ColumnSpec("price", "decimal(10,2)"),
        ColumnSpec("due_on", "date", nullable=True),
        ColumnSpec("shipped_at", "timestamp", nullable=True),
        ColumnSpec("note", "string", nullable=True),
        ColumnSpec("remark", "string", nullable=True),
        ColumnSpec("label", "binary", nullable=True),
    ),
    key_columns=("order_id", "item_no"),
)
TABLES = (*widened((CUSTOMER,), 6, 6), ORDER_ITEM)
TOPICS = {"customer": "kafka_sales_customer", "order_item": "kafka_sales_order_item"}
OPTIONS = KafkaOptions(
    source_schema="SALES",
    topic_prefix="kafka_sales_",
    byte_order="big",
    versions=3,
    lob_columns={"order_item": ("remark", "label")},
    # key updates may leave columns uncaptured: the new key carries the old key's values
    uncaptured_key_updates=True,
)
# Kafka topic names as real clusters have them (a dot, a hyphen), and a quote, which must not
# break SQL: the JSON Lines build lands on these
ODD_OPTIONS = replace(OPTIONS, topic_prefix="src.o'sales-", metadata_topic="src.o'sales-metadata")


def dbt_vars(root: Path, options: KafkaOptions = OPTIONS) -> dict[str, object]:
    return {
        "cdc_tables": {
            spec.name: {
                "source_system": "qlik_kafka",
                "source_schema": options.source_schema,
                "topic": options.topic(spec.name),
                "key_columns": list(spec.key_columns),
                "columns": {column.name: {"type": column.spark_type} for column in spec.columns},
            }
            for spec in TABLES
        },
        "qlik_kafka_landing": "files",
        "qlik_kafka_landing_root": str(root),
        "qlik_kafka_landing_format": "parquet",
        "qlik_kafka_schema": "kafka_proof_raw",
        "qlik_kafka_metadata_topic": options.metadata_topic,
        "qlik_kafka_task": options.task,
        "qlik_kafka_hex_mask_byte_order": options.byte_order,
    }


# ---------------------------------------------------------------------------------------------
# the scenario (pure Python, checked without Spark below)


@dataclass
class Scenario:
    sim: Simulation
    producer: Producer
    batch_1: list[Message]
    batch_2: list[Message]
    late: list[Change]
    after_batch_1: State
    # batch 1 lands in two runs: its first `batch_1_first_run` messages (the metadata, the
    # baseline and the first half of its changes), then the rest (no metadata)
    batch_1_first_run: int
    after_batch_1_first_run: State
    open_after_batch_1: set[str]
    points: list[Point] = field(default_factory=list)


def build_scenario(options: KafkaOptions = OPTIONS) -> Scenario:
    sim = simulate(CHANGES, keys=KEYS, seed=SEED, tables=TABLES)
    rng = random.Random(SEED)
    producer = Producer(sim, options, seed=SEED)
    cut, delivered = 0, 0
    for transaction in sim.transactions():
        if delivered >= BATCH_1_SHARE * len(sim.changes):
            break
        delivered += len(transaction)
        cut = delivered
    late = choose_late(sim, sim.changes[:cut], rng)
    late_seqs = {change.change_seq for change in late}
    newest_of_batch_1 = sim.changes[cut - 1].commit_time

    metadata = producer.metadata()  # published first, as Replicate does before the data
    baseline = producer.baseline()
    messages = producer.changes(sim.changes)  # one per change, in change order
    batch_1_changes = [m for m in messages[:cut] if m.change_seq not in late_seqs]
    batch_1 = [
        *(m for m in metadata if m.timestamp <= newest_of_batch_1),
        *baseline,
        *batch_1_changes,
    ]
    batch_1_first_run = len(batch_1) - len(batch_1_changes) + len(batch_1_changes) // 2
    batch_1 += [producer.redeliver(m) for m in rng.sample(batch_1_changes, 5)]
    batch_2 = [
        *(m for m in metadata if m.timestamp > newest_of_batch_1),
        producer.redeliver(metadata[0]),
        producer.redeliver(baseline[len(baseline) // 2]),
        *messages[cut:],
        *(m for m in messages[:cut] if m.change_seq in late_seqs),
        *(producer.redeliver(m) for m in rng.sample(batch_1_changes, 6)),
    ]
    batch_1_model = [change for change in sim.changes[:cut] if change.change_seq not in late_seqs]
    sizes = {t[0].transaction_id: len(t) for t in sim.transactions()}
    scenario = Scenario(
        sim=sim,
        producer=producer,
        batch_1=batch_1,
        batch_2=batch_2,
        late=late,
        after_batch_1=replay(sim.tables, sim.baseline, batch_1_model),
        batch_1_first_run=batch_1_first_run,
        after_batch_1_first_run=replay(
            sim.tables, sim.baseline, batch_1_model[: len(batch_1_changes) // 2]
        ),
        open_after_batch_1={c.transaction_id for c in late if sizes[c.transaction_id] > 1},
    )
    scenario.points = choose_points(sim, late) + version_points(sim, producer)
    return scenario


def choose_points(sim: Simulation, late: list[Change]) -> list[Point]:
    """Change sequences and times that probe the hard cases, with the model's state at each."""
    changes, transactions = sim.changes, sim.transactions()
    picked: list[tuple[str, list[Change]]] = [
        (
            "inside a multi-change transaction",
            [t[len(t) // 2 - 1] for t in transactions if len(t) >= 3],
        ),
        ("right after a delete", [c for c in changes[len(changes) // 2 :] if c.op == "D"]),
        ("on a late (out-of-order) change", late),
    ]
    for spec in sim.tables:
        key_updates = [c for c in changes if c.table == spec.name and c.is_key_update(spec)]
        picked.append((f"right after a key update of {spec.name}", key_updates))
    reinserts = [changes[i] for i in reinsert_positions(sim, changes)]
    picked.append(("right after a re-insert of a deleted key", reinserts))
    points = []
    for label, matches in picked:
        assert matches, f"the simulation has no change for point '{label}'; change SEED"
        change_seq = matches[len(matches) // 2].change_seq
        points.append(Point(label, change_seq, sim.state_at(change_seq)))
    return points + time_points(sim)


def version_points(sim: Simulation, producer: Producer) -> list[Point]:
    """The first change under each later table version, and the change just before it."""
    points = []
    for table, versions in producer.versions.items():
        for version in versions[1:]:
            index = next(i for i, c in enumerate(sim.changes) if c.commit_time >= version.starts_at)
            for label, change in (("before", sim.changes[index - 1]), ("at", sim.changes[index])):
                points.append(
                    Point(
                        f"{label} {table} version {version.version}",
                        change.change_seq,
                        sim.state_at(change.change_seq),
                    )
                )
    unique: dict[str, Point] = {}
    for point in points:
        unique.setdefault(point.value, point)
    return list(unique.values())


def test_kafka_proof_scenario_is_well_formed() -> None:
    """The generator half of the proof, without Spark."""
    scenario = build_scenario()
    sim = scenario.sim
    data_1 = [m for m in scenario.batch_1 if m.change_seq]
    data_2 = [m for m in scenario.batch_2 if m.change_seq]
    newest_of_batch_1 = max(m.change_seq for m in data_1 if m.change_seq)
    assert scenario.late and all(c.change_seq < newest_of_batch_1 for c in scenario.late)
    assert {m.change_seq for m in data_1} | {m.change_seq for m in data_2} == {
        c.change_seq for c in sim.changes
    }
    assert len(data_1) + len(data_2) > len(sim.changes), "some messages are delivered twice"
    assert scenario.after_batch_1 != sim.state_at(newest_of_batch_1), "late changes matter"
    assert scenario.open_after_batch_1, "a late change leaves its transaction open"
    # every version's metadata lands no later than its first data message
    md_1 = [m for m in scenario.batch_1 if m.operation == "MD"]
    first_run = scenario.batch_1[: scenario.batch_1_first_run]
    assert md_1 == [m for m in first_run if m.operation == "MD"], "no metadata in the second"
    assert any(m.change_seq for m in scenario.batch_1[scenario.batch_1_first_run :])
    assert scenario.after_batch_1_first_run not in (scenario.after_batch_1, sim.baseline)
    md_2 = [m for m in scenario.batch_2 if m.operation == "MD"]
    assert len(md_1) == 2 * len(TABLES) and len(md_2) == len(TABLES) + 1
    # offsets disagree with change order
    places = {(m.topic, m.partition) for m in data_1}
    assert len(places) == 3 * len(TABLES)
    assert len(scenario.points) >= 12
    labels = [point.label for point in scenario.points]
    assert any(label.startswith("at customer version 3") for label in labels)
    assert {OPTIONS.topic(spec.name) for spec in TABLES} == set(TOPICS.values())


@pytest.mark.e2e
@pytest.mark.spark
def test_qlik_kafka_messages_prove_point_in_time_state(
    tmp_path: Path, spark: Any, run_dbt: Any
) -> None:
    scenario = build_scenario()
    root = tmp_path / "topics"
    build = ["build", "--exclude", "test_type:unit"]

    first_run = scenario.batch_1[: scenario.batch_1_first_run]
    write_topics(root, first_run, files=3, duplicates=0.03, seed=SEED)
    # `run` for batch 1, `build` (with the data tests) for the last: the tests check the
    # final state, and each `build` of them costs a minute on two cores
    run_dbt(["run"], schema=SCHEMA, vars=dbt_vars(root))
    assert not judgement_differences(spark, SCHEMA)
    failures = check_tables(
        spark,
        TABLES,
        f"{SCHEMA}.{{table}}_as_of('latest')",
        scenario.after_batch_1_first_run,
        "after batch 1's first run",
    )
    assert not failures, "\n".join(failures)

    # the rest of batch 1, no metadata: only its messages are decoded, appended
    second_run = scenario.batch_1[scenario.batch_1_first_run :]
    write_topics(root, second_run, files=2, duplicates=0.03, seed=SEED + 2)
    result = run_dbt(["run"], schema=SCHEMA, vars=dbt_vars(root))
    assert "and loaded_at > timestamp" in compiled(result, "int_qlik_kafka__messages_decoded")
    # and judged: each new message a copy of a judged change at its place or after every
    # judged message of its table (qlik_kafka_judgement_plan)
    assert "and staged_at > timestamp" in compiled(result, "int_qlik_kafka__message_copies_judged")
    assert not judgement_differences(spark, SCHEMA)
    # and the staging reads only the files not staged yet (cdc_files_not_staged)
    assert "file_modification_time as string)) not in (" in compiled(
        result, "stg_qlik_kafka__messages"
    )
    failures = check_tables(
        spark,
        TABLES,
        f"{SCHEMA}.{{table}}_as_of('latest')",
        scenario.after_batch_1,
        "after batch 1, late changes not yet delivered",
    )
    assert not failures, "\n".join(failures)
    assert quarantined(spark) == []
    assert incomplete_transactions(spark) == scenario.open_after_batch_1
    # the boundaries, read from the judgement alone, cut at the first change left open
    assert not boundary_differences(spark, SCHEMA, "qlik_kafka")

    # batch 2's metadata (version 3) lands alone: every message is decoded again
    metadata_2 = [m for m in scenario.batch_2 if m.operation == "MD"]
    write_topics(root, metadata_2, seed=SEED + 1)
    result = run_dbt(["run"], schema=SCHEMA, vars=dbt_vars(root))
    assert "loaded_at > timestamp" not in compiled(result, "int_qlik_kafka__messages_decoded")
    assert not judgement_differences(spark, SCHEMA)
    # then its data, appended: the decoded table recorded the newest metadata its last
    # write saw (cdc.invalidated_seen), so the metadata staged before the data is not new
    data_2 = [m for m in scenario.batch_2 if m.operation != "MD"]
    write_topics(root, data_2, files=2, duplicates=0.03, seed=SEED + 3)
    result = run_dbt(build, schema=SCHEMA, vars=dbt_vars(root))
    assert "and loaded_at > timestamp" in compiled(result, "int_qlik_kafka__messages_decoded")
    # the late changes sort among judged messages: every message judged again
    assert "staged_at > timestamp" not in compiled(result, "int_qlik_kafka__message_copies_judged")
    assert not judgement_differences(spark, SCHEMA)
    final = scenario.sim.final
    for spec in TABLES:
        failures += check_all(
            spark,
            spec,
            expectations_at(scenario.points, f"{SCHEMA}.{spec.name}_as_of", spec.name),
        )
        failures += check(
            spark, spec, f"{SCHEMA}.dim_{spec.name}_current", final[spec.name], "final state"
        )
    assert not failures, "\n".join(failures)
    assert quarantined(spark) == []
    assert incomplete_transactions(spark) == set()
    assert not boundary_differences(spark, SCHEMA, "qlik_kafka")
    changes = spark.sql(
        f"select count(*) from {SCHEMA}.fct_cdc_changes where not is_snapshot"
    ).first()[0]
    assert changes == len(scenario.sim.changes), "each change logged once despite the copies"


def compiled(result: Any, model: str) -> str:
    """The SQL `model` ran in a dbt run's `result`."""
    return next(r.node.compiled_code for r in result.result.results if r.node.name == model)


def quarantined(spark: Any) -> list[tuple[str, str]]:
    rows = spark.sql(f"select raw_key, reason from {SCHEMA}.fct_cdc_quarantine").collect()
    return sorted((row[0], row[1]) for row in rows)


def incomplete_transactions(spark: Any) -> set[str]:
    rows = spark.sql(
        f"select distinct txn_id from {SCHEMA}.fct_cdc_changes"
        " where array_contains(flags, 'transaction_incomplete')"
    ).collect()
    return {row[0] for row in rows}


@pytest.mark.e2e
@pytest.mark.spark
def test_qlik_kafka_json_lines_landing(tmp_path: Path, spark: Any, run_dbt: Any) -> None:
    """The same messages landed as JSON Lines topic files (qlik_kafka_landing_format: json),
    one run: the state equals the model's; a line that is not JSON and a file with other
    fields are quarantined, each with its reason, and nothing else is. The topics, metadata
    topic included, are named like `src.o'sales-customer`: each folder is read as named and
    registered as qlik_kafka_landed_table_name (topic_src_o_sales_customer)."""
    scenario = build_scenario(ODD_OPTIONS)
    root = tmp_path / "topics"
    write_topics(root, [*scenario.batch_1, *scenario.batch_2], files=3, fmt="json", seed=SEED)
    assert {folder.name for folder in root.iterdir()} == {
        "src.o'sales-customer",
        "src.o'sales-order_item",
        "src.o'sales-metadata",
    }
    topic = root / ODD_OPTIONS.topic("customer")
    good = next(line for line in (topic / "part-00000.json").read_text().splitlines())
    (topic / "part-00003.json").write_text(good + "\n{not json\n", encoding="utf-8")
    (topic / "part-00004.json").write_text('{"topic": "x", "value": "{}"}\n', encoding="utf-8")
    # a folder whose name differs only in case is another topic: never read
    (root / "SRC.O'SALES-CUSTOMER").mkdir()
    (root / "SRC.O'SALES-CUSTOMER" / "part-00000.json").write_text("{not json\n")
    variables = {**dbt_vars(root, ODD_OPTIONS), "qlik_kafka_landing_format": "json"}
    variables["qlik_kafka_schema"] = "kafka_json_raw"
    # the scaffold names the topics' source tables as the folders are registered
    tables = variables["cdc_tables"]
    assert isinstance(tables, dict)
    project = project_with_tables(tmp_path / "project", tables)
    # `run`: the data tests check these models in the proof's build
    run_dbt(["run"], schema="kafka_json", vars=variables, project_dir=project)
    registered = {
        row["tableName"]
        for row in spark.sql("show tables in kafka_json_raw").collect()
        if not row["isTemporary"]  # the session's temporary views are listed in any schema
    }
    assert registered == {
        "topic_src_o_sales_customer",
        "topic_src_o_sales_order_item",
        "topic_src_o_sales_metadata",
    }
    failures = check_tables(
        spark,
        TABLES,
        "kafka_json.{table}_as_of('latest')",
        scenario.sim.final,
        "JSON Lines landing, latest",
    )
    assert not failures, "\n".join(failures)
    rows = spark.sql(
        "select raw_key, reason, landed_table from kafka_json.fct_cdc_quarantine"
    ).collect()
    reasons = sorted(row[1] for row in rows)
    assert len(reasons) == 2, reasons
    assert reasons[0].startswith("landed file kept out: json file does not match"), reasons
    assert "landed line is not a JSON object (JSON Lines file)" in reasons[1], reasons
    assert {row[2] for row in rows} == {"src.o'sales-customer"}


# the judged table's columns before it was appended to (0c44951)
OLD_COLUMNS = (
    "landed_table, kafka_partition, kafka_offset, value_hash, message_at, refresh_batch,"
    " first_change_at, change_identity, is_reload, refresh_batch_at, copy_number,"
    " first_staged_at, duplicate_status"
)


@pytest.mark.e2e
@pytest.mark.spark
def test_qlik_kafka_judgement_appended_equals_judging_every_message(
    tmp_path: Path, spark: Any, run_dbt: Any
) -> None:
    """The copies' judgement over five runs, each compared with the one `kafka_judgement.py`
    works out from the spec's rules over every decoded message. The baseline lands in two
    runs: the second appended, its REFRESH rows going on with the first run's batch. The
    first changes: every message judged again (each table's first change time, on every
    row of it, changes). Then changes with copies of judged changes at their place, one of
    them with another value (a late conflicting duplicate), a reload of one table (REFRESH
    rows after its changes) and changes after it: appended (the judged table read by the
    plan and the model). A message older than judged ones of its table, which makes a run
    judge every message again, is the proof's batch 2 above. Last, the table put back as
    the model's earlier version wrote it (no appended columns, no write marks): the next
    run judges every message again and adds the columns. After each run the transaction
    boundaries, read from the judgement alone, equal the rule `transaction_boundaries.py`
    works out over the log's view (the reload's TRUNCATE points among them). Only the
    judgement, the boundaries and the log's views run."""
    sim = simulate(60, keys=10, seed=SEED + 7, tables=TABLES)
    producer = Producer(sim, OPTIONS, seed=SEED + 7)
    metadata, baseline = producer.metadata(), producer.baseline()
    changes = producer.changes(sim.changes)
    assert len(changes) == 60
    # a reload between two changes of different commit times, after the 40th
    gap = next(
        i for i in range(39, 50) if sim.changes[i].commit_time < sim.changes[i + 1].commit_time
    )
    reload_at = (
        sim.changes[gap].commit_time
        + (sim.changes[gap + 1].commit_time - sim.changes[gap].commit_time) / 2
    )
    reloaded = [
        producer.republish(m, at=reload_at + timedelta(microseconds=n))
        for n, m in enumerate(baseline)
        if m.topic == OPTIONS.topic("customer")
    ]
    conflicting = producer.republish(changes[5], value=changes[5].value + " ")
    # the first half of each table's baseline in the first run, the rest in the second
    by_topic: dict[str, list[Message]] = {}
    for message in baseline:
        by_topic.setdefault(message.topic, []).append(message)
    first_half = [m for rows in by_topic.values() for m in rows[: len(rows) // 2]]
    runs = [
        [*metadata, *first_half],
        [m for m in baseline if m not in first_half],
        changes[:20],
        [
            *changes[20 : gap + 1],
            *(producer.redeliver(m) for m in changes[2:5]),
            conflicting,
            *reloaded,
            *changes[gap + 1 :],
        ],
    ]
    root = tmp_path / "topics"
    schema = "kafka_judged"
    variables = {**dbt_vars(root), "qlik_kafka_schema": "kafka_judged_raw"}
    # the judgement with its parents, and what reads the judgement alone: the transaction
    # boundaries, checked against the log's view (and its other parent, the decoded view)
    select = [
        "run",
        "--select",
        "+int_qlik_kafka__transaction_boundaries",
        "int_qlik_kafka__messages_deduplicated",
        "int_qlik_kafka__changes_canonical",
    ]
    for number, messages in enumerate(runs, start=1):
        write_topics(root, messages, files=2, seed=SEED + number)
        result = run_dbt(select, schema=schema, vars=variables)
        appended = "and staged_at > timestamp" in compiled(
            result, "int_qlik_kafka__message_copies_judged"
        )
        assert appended == (number in (2, 4)), f"run {number}: appended {appended}"
        differences = judgement_differences(spark, schema)
        assert not differences, f"run {number}:\n" + "\n".join(differences[:20])
        differences = boundary_differences(spark, schema, "qlik_kafka")
        assert not differences, f"run {number}, boundaries:\n" + "\n".join(differences[:20])
    # the table as the model's earlier version (materialized as a table) left it: without the
    # columns it carries now and without the write guard's marks; the next run, with nothing
    # new, judges every message again into the columns (append_new_columns)
    judged = f"{schema}.int_qlik_kafka__message_copies_judged"
    spark.sql(
        f"create table {schema}.judged_before_upgrade using parquet as select {OLD_COLUMNS}"
        f" from {judged}"
    )
    spark.sql(f"drop table {judged}")
    spark.sql(f"alter table {schema}.judged_before_upgrade rename to {judged}")
    result = run_dbt(select, schema=schema, vars=variables)
    assert "staged_at > timestamp" not in compiled(result, "int_qlik_kafka__message_copies_judged")
    assert [f.name for f in spark.table(judged).schema.fields][-8:] == [
        "source_table",
        "operation",
        "change_seq",
        "staged_at",
        "change_seq_at",
        "transaction_id",
        "transaction_event_counter",
        "is_transaction_last_event",
    ]
    differences = judgement_differences(spark, schema)
    assert not differences, "after the upgrade:\n" + "\n".join(differences[:20])
    statuses = dict(
        spark.sql(
            f"select duplicate_status, count(*) from {schema}.int_qlik_kafka__message_copies_judged"
            " group by 1"
        ).collect()
    )
    assert statuses.get("late_conflicting") == 1 and statuses.get("exact_copy", 0) >= 3
    reloads = spark.sql(
        f"select count(*) from {schema}.int_qlik_kafka__message_copies_judged where is_reload"
    ).first()[0]
    assert reloads == len(reloaded), "the reload's REFRESH rows judged a reload"
