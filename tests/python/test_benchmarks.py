"""The benchmark's own parts that its figures depend on: the memory sampler measures what a
process tree really holds, the hand-written baseline job (the comparison point) computes the
simulated tables' true current state and well-formed histories, and the pipeline driver
configures the same tables as the baseline, lands an empty input of the generated schema and
runs its steps in order (with stand-ins for dbt and Spark)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

import pyarrow.parquet as pq
import pytest
import yaml

from benchmarks import cluster as cluster_driver
from benchmarks import (
    goldengate_baseline_job,
    openedge_baseline_job,
    pipeline,
    qlik_kafka_baseline_job,
    staging_run,
)
from benchmarks.baseline_job import TABLES, run
from benchmarks.cluster import compared_columns, compared_models
from benchmarks.pipeline import (
    PROJECT_FILE,
    BenchmarkError,
    benchmark_tables,
    cdc_tables_var,
    count_rows,
    write_empty_landing,
)
from benchmarks.process_memory import Measurement, measure
from cdc_simulator import goldengate as gg
from cdc_simulator import openedge_cdc as oe
from cdc_simulator.qlik_ct import emit, generate_landing, write_parquet
from cdc_simulator.qlik_kafka import KafkaOptions, Producer, write_topics
from cdc_simulator.table_model import UTC, Change, Simulation, TableSpec, simulate

ALLOCATE = (
    "import subprocess, sys, time\n"
    "child = subprocess.Popen([sys.executable, '-c', "
    "'x = bytearray(60 * 2**20); import time; time.sleep(1.5)'])\n"
    "x = bytearray(40 * 2**20)\n"
    "time.sleep(1.5)\n"
    "sys.exit(child.wait() or 3)\n"
)


def test_memory_sampler_sums_the_process_tree(tmp_path: Path) -> None:
    """A parent holding 40 MiB and its child holding 60 MiB: the tree peaks above 100 MiB,
    the largest single process above 60 MiB; the exit code and the log come through."""
    result = measure([sys.executable, "-c", ALLOCATE], log_path=tmp_path / "run.log")
    assert result.exit_code == 3
    assert result.wall_seconds >= 1.5
    assert result.peak_processes >= 2
    assert result.peak_total_rss_mib >= 100
    assert 60 <= result.peak_largest_rss_mib < result.peak_total_rss_mib
    assert (tmp_path / "run.log").read_text().startswith("$ ")


def _normalized(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return value


@pytest.mark.spark
def test_baseline_job_computes_the_true_current_state(tmp_path: Path, spark: Any) -> None:
    """The baseline is compared with the pipeline in the benchmark; here it is compared with
    the simulator's own final state, and its histories have one current version per key."""
    sim = simulate(1500, keys=40, seed=11)
    landing = tmp_path / "landing"
    write_parquet(landing, emit(sim.changes, sim.tables), sim.baseline, files=2, shuffle=True)
    run(spark, str(landing), str(tmp_path / "out"))
    for spec in sim.tables:
        assert tuple(TABLES[spec.name]) == spec.key_columns
        frame = spark.read.parquet(str(tmp_path / "out" / f"{spec.name}_current"))
        rows = [
            tuple(_normalized(record[name]) for name in spec.column_names)
            for record in frame.toArrow().to_pylist()
        ]
        assert {spec.key_of(row): row for row in rows} == sim.final[spec.name]
        assert len(rows) == len(sim.final[spec.name])
        history = spark.read.parquet(str(tmp_path / "out" / f"{spec.name}_history"))
        keys = ", ".join(spec.key_columns)
        doubled = spark.sql(
            f"select {keys} from {{history}} where is_current group by {keys} having count(*) > 1",
            history=history,
        ).count()
        assert doubled == 0


@pytest.mark.spark
def test_openedge_baseline_job_computes_the_true_history(tmp_path: Path, spark: Any) -> None:
    """The OpenEdge baseline against the simulator: the customer (level 3), item (level 2)
    and visit (level 0) tables captured with split records of every kind (shuffled), and
    the state its history gives at every tenth change (and the current state) equal to the
    model's state after that change; key updates end their old key (a `K` version) in both
    levels that carry values; the current state holds a row per live key."""
    sim = simulate(1200, keys=40, seed=12, tables=(oe.CUSTOMER, oe.ITEM, oe.VISIT))
    emitted = oe.emit(sim, split_share=0.3, seed=12)
    assert {kind for unit in emitted.units for kind in unit.split_kinds} == {
        "plain",
        "fragment",
        "array",
    }
    records: dict[str, list[dict[str, object]]] = {}
    for unit in emitted.units:
        records.setdefault(unit.table, []).extend(unit.records)
    landing, out = tmp_path / "landing", tmp_path / "out"
    oe.write_parquet(landing, [unit.tracking for unit in emitted.units], records, part=1)
    openedge_baseline_job.run(spark, str(landing), str(out))

    specs = {"oe_customer": oe.CUSTOMER, "item": oe.ITEM}
    # per table (each counts its own _Change-Sequence): the model's state after every tenth
    # of its changes, and after its last
    points: dict[str, list[tuple[int, dict[Any, Any]]]] = {}
    for name, spec in specs.items():
        rows = dict(sim.baseline.get(spec.name, {}))
        changes = [change for change in sim.changes if change.table == spec.name]
        points[name] = []
        for position, change in enumerate(changes, start=1):
            before, after = change.key_before(spec), change.key_after(spec)
            if change.op in ("U", "D"):
                assert before is not None
                rows.pop(before)
            if change.op in ("I", "U"):
                assert after is not None and change.after is not None
                rows[after] = change.after
            if position % 10 == 0 or position == len(changes):
                sequence = emitted.sequence_of[spec.name][change.change_seq]
                points[name].append((sequence, dict(rows)))
        assert rows == sim.final[spec.name]
    for name, spec in specs.items():
        history = spark.read.parquet(str(out / f"{name}_history"))
        versions = [
            (
                record["valid_from_order_key"],
                record["valid_to_order_key"],
                record["is_deleted"],
                tuple(_normalized(record[column]) for column in spec.column_names),
            )
            for record in history.toArrow().to_pylist()
        ]
        for sequence, expected in points[name]:
            point = str(sequence).zfill(20)
            live = {
                spec.key_of(row): row
                for start, end, deleted, row in versions
                if start <= point and (end is None or point < end) and not deleted
            }
            assert live == expected, f"{name} at _Change-Sequence {sequence}"
        moved = history.where("change_op = 'K'").count()
        assert moved > 0, f"{name}: no key update in the simulation; change the seed"
        current = spark.read.parquet(str(out / f"{name}_current")).count()
        assert current == len(sim.final[spec.name])
    visits = spark.read.parquet(str(out / "visit_current")).toArrow().to_pylist()
    assert {(record["recid"],) for record in visits} == set(oe.recid_state(emitted.units, "visit"))


def _assert_history_follows_the_model(
    spark: Any,
    out: Path,
    sim: Simulation,
    spec: TableSpec,
    point_of: Callable[[Change], str],
    *,
    min_key_updates: int,
) -> None:
    """A baseline's `<out>/<table>_history` gives, at the order key `point_of(change)` of
    every tenth change of the table (and of its last), the model's state after that change;
    the model ends in the simulator's final state; the table had at least `min_key_updates`
    key updates and the history ends an old key (`K`) somewhere; `<out>/<table>_current`
    holds a row per live key."""
    rows = dict(sim.baseline.get(spec.name, {}))
    changes = [change for change in sim.changes if change.table == spec.name]
    key_updates = sum(change.is_key_update(spec) for change in changes)
    assert key_updates >= min_key_updates, "change the seed"
    history = spark.read.parquet(str(out / f"{spec.name}_history"))
    versions = [
        (
            record["valid_from_order_key"],
            record["valid_to_order_key"],
            record["is_deleted"],
            tuple(_normalized(record[column]) for column in spec.column_names),
        )
        for record in history.toArrow().to_pylist()
    ]
    for number, change in enumerate(changes, start=1):
        before, after = change.key_before(spec), change.key_after(spec)
        if change.op in ("U", "D"):
            assert before is not None
            rows.pop(before)
        if change.op in ("I", "U"):
            assert after is not None and change.after is not None
            rows[after] = change.after
        if number % 10 and number != len(changes):
            continue
        point = point_of(change)
        live = {
            spec.key_of(row): row
            for start, end, deleted, row in versions
            if start <= point and (end is None or point < end) and not deleted
        }
        assert live == rows, f"{spec.name} at {point}"
    assert rows == sim.final[spec.name]
    assert history.where("change_op = 'K'").count() > 0
    current = spark.read.parquet(str(out / f"{spec.name}_current")).count()
    assert current == len(sim.final[spec.name])


@pytest.mark.spark
def test_qlik_kafka_baseline_job_computes_the_true_history(tmp_path: Path, spark: Any) -> None:
    """The Kafka baseline against the simulator: its two tables published as the benchmark
    publishes them (two table versions, envelopes, exact copies) but with half the updates
    capturing only their key and changed columns (the rest left out or written as null, key
    updates included), landed shuffled; the state its history gives at every tenth change
    (and the current state) equals the model's state after that change, so every column an
    update left out was carried forward, across key updates too (a `K` version ends the old
    key); the current state holds a row per live key."""
    tables = [table.spec for table in qlik_kafka_baseline_job.TABLES]
    sim = simulate(1500, keys=30, seed=13, tables=tuple(tables))
    options = KafkaOptions(
        source_schema="SALES",
        topic_prefix=qlik_kafka_baseline_job.TOPIC_PREFIX,
        metadata_topic=qlik_kafka_baseline_job.METADATA_TOPIC,
        byte_order=qlik_kafka_baseline_job.BYTE_ORDER,
        uncaptured=0.5,
    )
    producer = Producer(sim, options, seed=13)
    messages = [*producer.metadata(), *producer.baseline(), *producer.changes(sim.changes)]
    landing, out = tmp_path / "landing", tmp_path / "out"
    write_topics(landing, messages, files=2, duplicates=0.05, seed=13)
    qlik_kafka_baseline_job.run(spark, str(landing), str(out))

    for spec in tables:
        _assert_history_follows_the_model(
            spark, out, sim, spec, lambda change: change.change_seq, min_key_updates=1
        )


@pytest.mark.spark
def test_goldengate_baseline_job_computes_the_true_history(tmp_path: Path, spark: Any) -> None:
    """The GoldenGate baseline against the simulator: the benchmark's order and document tables
    written as trail records with long values in chains of chunks and a file rollover every
    60 records (so some chains and some before/after pairs straddle two files), landed
    shuffled in two files with copies; the state its history gives at every tenth change
    (and the current state) equals the model's state after that change, so FieldComp images
    were completed from the row's earlier state, across the three forms of key update (a
    `K` version ends the old key); the current state holds a row per live key."""
    tables = goldengate_baseline_job.TABLES
    sim = simulate(1200, keys=30, seed=14, tables=tuple(tables))
    producer = gg.Producer(sim, gg.Options(chunk_size=15, records_per_file=60), seed=14)
    trail = [record for unit in producer.units for record in unit.records]
    assert any(record.rec_count > 2 for record in trail), "no chain of chunks"
    landing, out = tmp_path / "landing", tmp_path / "out"
    gg.write_landing(
        landing / goldengate_baseline_job.TRAIL,
        gg.trail_table(trail),
        files=2,
        duplicates=0.05,
        seed=14,
    )
    goldengate_baseline_job.run(spark, str(landing), str(out))

    position = {id(unit.change): unit.order_key for unit in producer.units if unit.change}
    for spec in tables:
        _assert_history_follows_the_model(
            spark, out, sim, spec, lambda change: position[id(change)], min_key_updates=3
        )


def test_builds_configure_only_the_generated_qlik_tables() -> None:
    """The build's var cdc_tables holds the project's own entries of the two generated tables,
    whose keys are the baseline job's: pipeline and baseline process the same tables."""
    configured = yaml.safe_load(PROJECT_FILE.read_text())["vars"]["cdc_tables"]
    entries = cdc_tables_var(benchmark_tables(extra_columns=2))
    assert list(entries) == ["employees", "order_lines"] == list(TABLES)
    for name, entry in entries.items():
        assert entry == configured[name]
        assert tuple(entry["key_columns"]) == TABLES[name]


def test_openedge_baseline_configures_the_projects_openedge_tables() -> None:
    """The OpenEdge baseline's tables are the project's: the same key columns, columns in
    the same (split-record) order, policy level, table number and change table."""
    configured = yaml.safe_load(PROJECT_FILE.read_text())["vars"]["cdc_tables"]
    openedge = {n: e for n, e in configured.items() if e["source_system"] == "openedge_cdc"}
    assert sorted(openedge) == sorted(table.name for table in openedge_baseline_job.TABLES)
    for table in openedge_baseline_job.TABLES:
        entry = openedge[table.name]
        assert tuple(entry["key_columns"]) == table.key_columns
        assert tuple(entry["columns"]) == table.columns
        assert (entry["policy_level"], entry["source_table_number"]) == (
            table.level,
            table.table_number,
        )
        if table.level >= 2:
            assert entry.get("change_table", f"cdc_{table.name}") == table.change_table


@pytest.mark.parametrize(
    ("order_lines", "message"),
    [
        pytest.param(None, "no table order_lines", id="table missing"),
        pytest.param(
            {"source_system": "idm_jdbc", "key_columns": ["order_id", "line_no"]},
            "not a qlik_ct table",
            id="another source system",
        ),
        pytest.param(
            {"source_system": "qlik_ct", "key_columns": ["line_no", "order_id"]},
            "differ from the generated",
            id="key columns in another order",
        ),
    ],
)
def test_cdc_tables_var_refuses_a_project_unlike_the_data(
    tmp_path: Path, order_lines: dict[str, Any] | None, message: str
) -> None:
    """A project whose tables do not match the generated ones stops the benchmark."""
    tables: dict[str, Any] = {
        "employees": {"source_system": "qlik_ct", "key_columns": ["employee_id"]}
    }
    if order_lines is not None:
        tables["order_lines"] = order_lines
    project = tmp_path / "dbt_project.yml"
    project.write_text(yaml.safe_dump({"vars": {"cdc_tables": tables}}))
    with pytest.raises(BenchmarkError, match=message):
        cdc_tables_var(benchmark_tables(), project)


def test_empty_landing_has_the_generated_folders_and_schemas_and_no_rows(tmp_path: Path) -> None:
    """The empty-input run reads the same folders and column types as a generated landing."""
    tables = benchmark_tables(extra_columns=2, extra_width=5)
    generate_landing(tmp_path / "generated", changes=40, keys=10, seed=3, tables=tables)
    write_empty_landing(tmp_path / "empty", tables)
    generated, empty = count_rows(tmp_path / "generated"), count_rows(tmp_path / "empty")
    assert (
        sorted(empty)
        == sorted(generated)
        == [
            "employees",
            "employees__ct",
            "order_lines",
            "order_lines__ct",
        ]
    )
    for name, counts in empty.items():
        assert (counts["rows"], counts["files"]) == (0, 1)
        assert generated[name]["rows"] > 0
        [generated_file] = sorted((tmp_path / "generated" / name).glob("*.parquet"))[:1]
        [empty_file] = (tmp_path / "empty" / name).glob("*.parquet")
        assert pq.read_schema(empty_file).equals(pq.read_schema(generated_file))


# Seconds a stand-in build takes, by step (the empty-input build takes 3).
BUILD_SECONDS = {"full": 10.0, "noop": 4.0, "incremental": 5.0, "tests": 7.0}


class FakeSteps:
    """Stand-ins for the driver's dbt builds, baseline job, compare and data generation: each
    build is recorded, takes `BUILD_SECONDS[<step>]` and reports one model."""

    def __init__(self) -> None:
        self.builds: list[tuple[str, str, list[str]]] = []

    def measurement(self, command: Sequence[str], log: Path, seconds: float) -> Measurement:
        log.write_text("$ fake\n")
        return Measurement(
            command=list(command),
            exit_code=0,
            wall_seconds=seconds,
            peak_total_rss_mib=100.0 + seconds,
            peak_largest_rss_mib=90.0,
            peak_largest_name="java",
            peak_processes=2,
            cpu_seconds=seconds,
            samples=1,
            log_path=str(log),
        )

    def run_dbt(
        self, arguments: Sequence[str], run_dir: Path, log: Path, results_copy: Path
    ) -> tuple[Measurement, dict[str, Any]]:
        step = log.stem.split("_")[0]
        seconds = 3.0 if run_dir.name == "run_empty" else BUILD_SECONDS[step]
        self.builds.append((log.stem, run_dir.name, list(arguments)))
        model = {
            "unique_id": f"model.cdc_history.{step}",
            "status": "success",
            "execution_time": seconds / 2,
            "timing": [],
        }
        return self.measurement(arguments, log, seconds), {
            "elapsed_time": seconds - 1,
            "results": [model],
        }

    def ensure_data(self, args: Any, work: Path, volume: int, logs: Path) -> dict[str, Any]:
        landing, append = work / f"data_{volume}" / "landing", work / f"data_{volume}" / "append"
        (landing / "employees__ct").mkdir(parents=True, exist_ok=True)
        (append / "employees__ct").mkdir(parents=True, exist_ok=True)
        (append / "employees__ct" / "part-00000.parquet").write_text("later batch")
        return {"landing": str(landing), "append": str(append), "change_rows": volume}


@pytest.mark.parametrize("differs_after_increment", [False, True])
def test_format_benchmark_compares_the_outputs_after_the_increment_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, differs_after_increment: bool
) -> None:
    """pipeline_beside_baseline (the three format benchmarks, with stand-ins for the runs and
    the jobs): the baseline job runs again while the later batch is landed, the outputs after
    the increment are compared with that second baseline's and recorded, and a difference
    there alone fails the benchmark; the later batch's copies are removed after."""
    work = tmp_path / "work"
    landing, later = work / "data" / "landing", work / "data" / "append"
    (landing / "topic").mkdir(parents=True)
    (later / "topic").mkdir(parents=True)
    (landing / "topic" / "part-0.parquet").write_text("first batch")
    (later / "topic" / "part-0.parquet").write_text("later batch")
    baselines: list[tuple[str, list[str]]] = []

    def run_baseline(module: str, landed: Path, out: Path) -> float:
        baselines.append((out.name, sorted(f.name for f in (landed / "topic").iterdir())))
        return 1.0

    def compare(warehouse: Path, baseline: Path, tables: Sequence[str]) -> list[str]:
        differs = differs_after_increment and baseline.name == "baseline_after_increment"
        return [f"{'DIFFERENT' if differs else 'same'} {t} ({baseline.name})" for t in tables]

    def timed_run(*_: Any, **__: Any) -> dict[str, object]:
        return {"run_seconds": 10.0, "models": []}

    monkeypatch.setattr(staging_run, "run_baseline", run_baseline)
    monkeypatch.setattr(staging_run, "compare_with_baseline", compare)
    monkeypatch.setattr(staging_run, "timed_run", timed_run)
    monkeypatch.setattr(staging_run, "count_rows", lambda *_: {"quarantined": 0})
    out = tmp_path / "result.json"
    status = staging_run.pipeline_beside_baseline(
        work,
        {"model_changes": 100},
        baseline_module="benchmarks.some_baseline_job",
        select=["some_model"],
        variables={},
        tables=["t_history"],
        quarantine="q",
        result_path=out,
    )
    assert baselines == [
        ("baseline", ["part-0.parquet"]),
        ("baseline_after_increment", ["batch-part-0.parquet", "part-0.parquet"]),
    ]
    assert sorted(f.name for f in (landing / "topic").iterdir()) == ["part-0.parquet"]
    result = json.loads(out.read_text())
    assert result["comparison"] == ["same t_history (baseline)"]
    assert result["comparison_after_increment"] == [
        f"{'DIFFERENT' if differs_after_increment else 'same'} t_history (baseline_after_increment)"
    ]
    assert status == (1 if differs_after_increment else 0)


def test_driver_runs_the_no_op_rerun_and_the_empty_input_and_records_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Per repeat: full build, no-op rerun in the same metastore, (tests), incremental; once
    at the end, a full build of an empty landing. Every build configures the two Qlik tables."""
    fake = FakeSteps()
    monkeypatch.setattr(pipeline, "run_dbt", fake.run_dbt)
    monkeypatch.setattr(pipeline, "ensure_data", fake.ensure_data)
    monkeypatch.setattr(
        pipeline, "measure", lambda command, log_path, **_: fake.measurement(command, log_path, 2)
    )
    monkeypatch.setattr(pipeline, "compare", lambda *_: {"verdict": "same", "lines": []})
    monkeypatch.setattr(pipeline, "cdc_dbt", lambda: "cdc-dbt")
    monkeypatch.setattr(pipeline, "machine_info", dict)
    monkeypatch.setattr(pipeline, "interrupt_on_sigterm", lambda: None)
    work, out = tmp_path / "work", tmp_path / "results.json"
    status = pipeline.main(
        ["--volumes", "100", "--repeats", "2", "--work", str(work), "--json", str(out)]
    )
    assert status == 0
    assert [(log, run_dir) for log, run_dir, _ in fake.builds] == [
        ("full_1", "run_100_1"),
        ("noop_1", "run_100_1"),
        ("tests", "run_100_1"),
        ("incremental_1", "run_100_1"),
        ("full_2", "run_100_2"),
        ("noop_2", "run_100_2"),
        ("incremental_2", "run_100_2"),
        ("full", "run_empty"),
    ]
    expected_tables = cdc_tables_var(benchmark_tables())
    for _log, run_dir, arguments in fake.builds:
        build_vars = json.loads(arguments[arguments.index("--vars") + 1])
        assert build_vars["cdc_tables"] == expected_tables
        if run_dir == "run_empty":
            assert build_vars["qlik_ct_landing_root"] == str(work / "data_empty" / "landing")

    results = json.loads(out.read_text())
    [entry] = results["volumes"]
    assert entry["pipeline_noop"]["median_seconds"] == 4.0
    assert entry["ratios"]["noop_over_full"] == 0.4
    assert entry["ratios"]["incremental_over_full"] == 0.5
    assert set(entry["top_models"]) == {"full", "noop", "incremental"}
    assert entry["top_models"]["noop"][0]["unique_id"] == "model.cdc_history.noop"
    empty = results["empty_input"]
    assert empty["pipeline_full"]["median_seconds"] == 3.0
    assert empty["pipeline_full"]["peak_total_rss_mib"] == 103.0
    assert {counts["rows"] for counts in empty["tables"].values()} == {0}
    assert results["settings"]["cdc_tables"] == expected_tables
    assert "empty input (a run's fixed cost): 3.0 s" in pipeline.summary_table(results)


class FakeCluster:
    """Stand-in for benchmarks.standalone_cluster.Cluster: records starts and the stop."""

    events: ClassVar[list[str]] = []

    def __init__(self, master_url: str, work_dir: Path, logs: Path) -> None:
        self.master_url, self.work_dir = master_url, work_dir

    def start_master(self, port: int) -> None:
        self.events.append("master")

    def start_worker(self, cores: int, memory: str) -> None:
        self.events.append(f"worker {cores} {memory}")

    def stop(self) -> None:
        self.events.append("stop")

    def executor_logs(self) -> str:
        return "fetched python_udfs.zip\nArrowPythonUDTFRunner: Times: total = 5 ms\n"


def _fake_cluster_driver(
    monkeypatch: pytest.MonkeyPatch, fail_at: str | None = None
) -> tuple[FakeSteps, list[tuple[str, dict[str, str], bool]]]:
    """benchmarks.cluster with stand-ins; returns the fake steps and, per build, its log
    name, extra environment and whether the later batch was in the landing."""
    fake = FakeSteps()
    builds: list[tuple[str, dict[str, str], bool]] = []

    def run_dbt(
        arguments: Sequence[str],
        run_dir: Path,
        log: Path,
        results_copy: Path,
        extra_env: dict[str, str] | None = None,
    ) -> tuple[Measurement, dict[str, Any]]:
        landing = json.loads(arguments[arguments.index("--vars") + 1])["qlik_ct_landing_root"]
        landed = any(Path(landing).rglob("batch-001-*"))
        builds.append((log.stem, dict(extra_env or {}), landed))
        target, step = log.stem.split("_")
        measurement, run_results = fake.run_dbt(
            arguments, run_dir, log.with_name(step), results_copy
        )
        seconds = {"local": 1.0, "cluster": 1.5}[target] * BUILD_SECONDS[step]
        exit_code = 2 if log.stem == fail_at else 0
        return replace(measurement, wall_seconds=seconds, exit_code=exit_code), run_results

    FakeCluster.events = []
    monkeypatch.setattr(cluster_driver, "run_dbt", run_dbt)
    monkeypatch.setattr(cluster_driver, "ensure_data", fake.ensure_data)
    monkeypatch.setattr(cluster_driver, "Cluster", FakeCluster)
    monkeypatch.setattr(
        cluster_driver,
        "measure",
        lambda command, log_path, **_: fake.measurement(command, log_path, 2),
    )
    monkeypatch.setattr(cluster_driver, "cdc_dbt", lambda: "cdc-dbt")
    monkeypatch.setattr(cluster_driver, "machine_info", dict)
    monkeypatch.setattr(cluster_driver, "interrupt_on_sigterm", lambda: None)
    return fake, builds


def test_cluster_driver_builds_both_targets_compares_and_stops_the_cluster(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Full and no-op rerun on each target, a compare, the later batch landed for both
    incremental builds only, a compare; the cluster started first and stopped at the end;
    ratios cluster / local per phase."""
    _, builds = _fake_cluster_driver(monkeypatch)
    monkeypatch.setattr(cluster_driver, "compare", lambda *_: {"verdict": "same", "lines": []})
    out = tmp_path / "cluster.json"
    status = cluster_driver.main(
        ["--changes", "100", "--work", str(tmp_path / "work"), "--json", str(out)]
    )
    assert status == 0
    assert [(name, landed) for name, _, landed in builds] == [
        ("local_full", False),
        ("local_noop", False),
        ("cluster_full", False),
        ("cluster_noop", False),
        ("local_incremental", True),
        ("cluster_incremental", True),
    ]
    assert FakeCluster.events == ["master", "worker 2 5g", "stop"]
    for name, env, _ in builds:
        assert env["CDC_SHUFFLE_PARTITIONS"] == "4"
        if name.startswith("cluster"):
            assert env["CDC_TARGET"] == "cluster"
            assert env["CDC_SPARK_MASTER"].startswith("spark://127.0.0.1:")
            assert "run_cluster_100/metastore_db" in env["CDC_METASTORE_URL"]
        else:
            assert env["CDC_TARGET"] == "local"
    entry = json.loads(out.read_text())["run"]
    assert entry["ratios"] == {"full": 1.5, "noop": 1.5, "incremental": 1.5}
    assert set(entry["compare"]) == {"noop", "incremental"}
    assert entry["executors"] == {"python_udfs_zip_fetched": True, "python_runner_timings": 1}
    assert not list((tmp_path / "work" / "data_100" / "landing").rglob("batch-001-*"))


@pytest.mark.parametrize(
    ("fail_at", "verdict", "status"),
    [
        pytest.param(None, "different", 1, id="outputs differ"),
        pytest.param("cluster_incremental", "same", 2, id="a build fails"),
    ],
)
def test_cluster_driver_fails_on_a_difference_or_a_failed_build_and_still_stops(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    fail_at: str | None,
    verdict: str,
    status: int,
) -> None:
    _, builds = _fake_cluster_driver(monkeypatch, fail_at)
    monkeypatch.setattr(cluster_driver, "compare", lambda *_: {"verdict": verdict, "lines": []})
    work = tmp_path / "work"
    assert (
        cluster_driver.main(
            ["--changes", "100", "--work", str(work), "--json", str(tmp_path / "c.json")]
        )
        == status
    )
    assert FakeCluster.events[-1] == "stop"
    assert not list((work / "data_100" / "landing").rglob("batch-001-*"))
    assert len(builds) == 6


def test_compared_columns_leave_out_only_the_load_times() -> None:
    columns = ["valid_from", "change_loaded_at", "employee_id", "loaded_at", "is_current"]
    assert compared_columns(columns) == ["employee_id", "is_current", "valid_from"]
    assert compared_models(["employees"]) == [
        "int_employees__change_images",
        "dim_employees_history",
        "dim_employees_current",
    ]


def test_wait_for_metastore_waits_while_another_process_holds_derby(tmp_path: Path) -> None:
    """A process holding dbex.lck's lock (as a booted Derby does) is waited for; past the
    limit the benchmark stops."""
    database = tmp_path / "metastore_db"
    database.mkdir()
    (database / "dbex.lck").write_text("")
    holder = (
        "import fcntl, os, sys, time\n"
        f"handle = os.open({str(database / 'dbex.lck')!r}, os.O_RDWR)\n"
        "fcntl.lockf(handle, fcntl.LOCK_EX)\n"
        "print('held', flush=True)\n"
        "time.sleep(float(sys.argv[1]))\n"
    )
    for hold, limit, stops in ((1.5, 30.0, False), (30.0, 1.0, True)):
        process = subprocess.Popen(
            [sys.executable, "-c", holder, str(hold)], stdout=subprocess.PIPE, text=True
        )
        try:
            assert process.stdout is not None and process.stdout.readline() == "held\n"
            started = time.monotonic()
            if stops:
                with pytest.raises(BenchmarkError, match="still held"):
                    pipeline.wait_for_metastore(database, limit)
            else:
                pipeline.wait_for_metastore(database, limit)
            waited = time.monotonic() - started
            if not stops:
                # the lock goes with the holder's exit, a moment before the exit can be
                # reaped (poll() raced it under load): it ends normally
                assert process.wait(timeout=10) == 0
            assert waited >= 1.0
        finally:
            process.kill()
            process.wait()
    pipeline.wait_for_metastore(tmp_path / "no_such_database", 0.1)


def test_tables_driver_runs_each_set_in_order_and_records_the_slopes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """benchmarks.tables: per table count a project copy of that many tiny Qlik tables (its
    landing settings in its dbt_project.yml), then run, test, no-op run; the mixed set seeds
    first. Seconds per node kind add the tables' nodes up; the slopes are per table."""
    from benchmarks import tables as driver

    calls: list[tuple[str, str]] = []
    per_table = {"run": 3.0, "test": 5.0, "noop_run": 0.5, "seed": 0.0}

    def measure(
        command: Sequence[str], log_path: Path, extra_env: dict[str, str], cwd: Path
    ) -> Measurement:
        run_dir = Path(extra_env["CDC_LOCAL_DIR"])
        step = Path(log_path).stem
        calls.append((run_dir.name, step))
        project = yaml.safe_load((Path(cwd) / "dbt_project.yml").read_text())
        count = len(project["vars"]["cdc_tables"])
        if run_dir.name.startswith("qlik_"):
            assert project["vars"]["qlik_ct_landing"] == "files"
            assert Path(project["vars"]["qlik_ct_landing_root"]).is_dir()
        nodes = [
            {
                "unique_id": f"model.cdc_history.stg_qlik_ct__table_{i:03d}",
                "execution_time": 1.0,
                "message": "nothing new" if step == "noop_run" else "OK",
                "status": "success",
            }
            for i in range(count)
        ]
        target = Path(extra_env["DBT_TARGET_PATH"])
        target.mkdir(parents=True, exist_ok=True)
        (target / "run_results.json").write_text(
            json.dumps({"elapsed_time": 1.0, "results": nodes})
        )
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        Path(log_path).write_text("$ fake\n")
        return Measurement(
            command=list(command),
            exit_code=0,
            wall_seconds=10.0 + per_table[step] * count,
            peak_total_rss_mib=100.0,
            peak_largest_rss_mib=90.0,
            peak_largest_name="java",
            peak_processes=2,
            cpu_seconds=1.0,
            samples=1,
            log_path=str(log_path),
        )

    monkeypatch.setattr(driver, "measure", measure)
    monkeypatch.setattr(driver, "cdc_dbt", lambda: "cdc-dbt")
    monkeypatch.setattr(driver, "machine_info", dict)
    out = tmp_path / "tables.json"
    status = driver.main(["--counts", "3", "1", "--work", str(tmp_path / "w"), "--json", str(out)])
    assert status == 0
    assert calls == [
        ("qlik_1", "run"),
        ("qlik_1", "test"),
        ("qlik_1", "noop_run"),
        ("qlik_3", "run"),
        ("qlik_3", "test"),
        ("qlik_3", "noop_run"),
        ("mixed", "seed"),
        ("mixed", "run"),
        ("mixed", "test"),
        ("mixed", "noop_run"),
    ]
    results = json.loads(out.read_text())
    assert results["slopes"] == [
        {
            "from": 1,
            "to": 3,
            "run_seconds_per_table": 3.0,
            "test_seconds_per_table": 5.0,
            "noop_run_seconds_per_table": 0.5,
        }
    ]
    noop = results["sets"]["qlik_3"]["commands"]["noop_run"]
    assert noop["models_skipped_nothing_new"] == 3
    assert noop["seconds_by_node_kind"] == {
        "model stg_qlik_ct__<table>": {"nodes": 3, "seconds": 3.0}
    }
    assert results["sets"]["mixed"]["tables"] == 5
    assert "| qlik_3 | 3 | 19.0 s | 25.0 s | 11.5 s | 3 / 3 |" in driver.summary_table(results)

    # --skip-test: the run and the no-op run only, and no test slope
    calls.clear()
    out = tmp_path / "tables_no_test.json"
    arguments = ["--counts", "1", "3", "--no-mixed", "--skip-test"]
    status = driver.main([*arguments, "--work", str(tmp_path / "w2"), "--json", str(out)])
    assert status == 0
    assert calls == [
        ("qlik_1", "run"),
        ("qlik_1", "noop_run"),
        ("qlik_3", "run"),
        ("qlik_3", "noop_run"),
    ]
    results = json.loads(out.read_text())
    assert results["slopes"] == [
        {"from": 1, "to": 3, "run_seconds_per_table": 3.0, "noop_run_seconds_per_table": 0.5}
    ]
    assert "| qlik_3 | 3 | 19.0 s | - | 11.5 s | 3 / - |" in driver.summary_table(results)


def test_tables_node_kinds_add_every_tables_nodes_up() -> None:
    from benchmarks.tables import node_kind

    assert node_kind("model.cdc_history.dim_table_007_history") == "model dim_<table>_history"
    assert (
        node_kind("test.cdc_history.matches_point_in_time_dim_table_012_live_table_012.16940675ce")
        == "test matches_point_in_time_dim_<table>_live_<table>"
    )
    assert node_kind("operation.cdc_history.cdc_history-on-run-start-1") == (
        "operation cdc_history-on-run-start-1"
    )


def test_full_snapshot_generator_counts_the_changes_its_snapshots_imply(tmp_path: Path) -> None:
    """benchmarks.full_snapshot_pipeline's expected change count (what the pipeline's log must
    hold) equals a plain diff of the snapshots it writes, consecutive pairs by key."""
    from benchmarks import full_snapshot_pipeline

    args = full_snapshot_pipeline.parse_args(
        ["--keys", "200", "--snapshots", "4", "--change-share", "0.1", "--work", str(tmp_path)]
    )
    info = full_snapshot_pipeline.generate(tmp_path / "data", args)
    files = sorted((tmp_path / "data").glob(f"*/{full_snapshot_pipeline.LANDED}/*.parquet"))
    files.sort(key=lambda path: path.name)
    snapshots = [{row["sku"]: row for row in pq.read_table(path).to_pylist()} for path in files]
    landed: Any = info["landed_rows"]
    assert len(snapshots) == 5 and landed["append"] == len(snapshots[-1])
    ops = {"I": len(snapshots[0]), "U": 0, "D": 0}
    for before, after in itertools.pairwise(snapshots[:-1]):
        ops["I"] += len(after.keys() - before.keys())
        ops["D"] += len(before.keys() - after.keys())
        ops["U"] += sum(before[key] != after[key] for key in before.keys() & after.keys())
    assert info["model_changes_by_op"] == ops and info["model_changes"] == sum(ops.values())
    last, previous = snapshots[-1], snapshots[-2]
    later = len(last.keys() ^ previous.keys()) + sum(
        previous[key] != last[key] for key in previous.keys() & last.keys()
    )
    assert info["later_model_changes"] == later and info["last_snapshot_rows"] == len(last)


def test_bitemporal_generator_lands_every_change_table_row_once_in_change_order(
    tmp_path: Path,
) -> None:
    """benchmarks.bitemporal_history's batches: every row the simulator emits lands in exactly
    one batch, the batches in change order (each batch's change_seqs after the one before),
    the full load with the first; a second call with the same parameters reuses them."""
    from benchmarks import bitemporal_history

    args = bitemporal_history.parse_args(
        ["--changes", "300", "--keys", "40", "--batches", "3", "--work", str(tmp_path)]
    )
    info = bitemporal_history.generate(tmp_path / "data", args)
    batches = [
        [
            row["header__change_seq"]
            for path in sorted((tmp_path / "data" / f"batch_{index}").glob("employees__ct/*"))
            for row in pq.read_table(path).to_pylist()
        ]
        for index in range(3)
    ]
    assert sum(len(batch) for batch in batches) == info["change_table_rows"]
    assert all(batch for batch in batches)
    assert all(max(before) <= min(after) for before, after in itertools.pairwise(batches))
    assert (tmp_path / "data" / "batch_0" / "employees").is_dir()
    assert not (tmp_path / "data" / "batch_1" / "employees").exists()
    assert bitemporal_history.generate(tmp_path / "data", args) == info
