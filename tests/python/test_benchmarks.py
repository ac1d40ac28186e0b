"""The benchmark's own parts that its figures depend on: the memory sampler measures what a
process tree really holds, the hand-written baseline job (the comparison point) computes the
simulated tables' true current state and well-formed histories, and the pipeline driver
configures the same tables as the baseline."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from benchmarks.baseline_job import TABLES, run
from benchmarks.pipeline import PROJECT_FILE, BenchmarkError, benchmark_tables, cdc_tables_var
from benchmarks.process_memory import measure
from cdc_simulator.qlik_ct import emit, write_parquet
from cdc_simulator.table_model import UTC, simulate

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


def test_builds_configure_only_the_generated_qlik_tables() -> None:
    """The build's var cdc_tables holds the project's own entries of the two generated tables,
    whose keys are the baseline job's: pipeline and baseline process the same tables."""
    configured = yaml.safe_load(PROJECT_FILE.read_text())["vars"]["cdc_tables"]
    entries = cdc_tables_var(benchmark_tables(extra_columns=2))
    assert list(entries) == ["employees", "order_lines"] == list(TABLES)
    for name, entry in entries.items():
        assert entry == configured[name]
        assert tuple(entry["key_columns"]) == TABLES[name]


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
