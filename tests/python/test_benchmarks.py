"""The benchmark's own parts that its figures depend on: the memory sampler measures what a
process tree really holds, and the hand-written baseline job (the comparison point) computes
the simulated tables' true current state and well-formed histories."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from benchmarks.baseline_job import TABLES, run
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
