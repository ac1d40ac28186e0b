"""A second process on the embedded Derby metastore stops with one line
(docs/running-on-a-cluster.md), instead of failing after minutes under thousands of log lines; a
holder that is exiting (the JVM of a command that has just ended) is waited for, bounded.

The probe is checked against a real fcntl lock held by another process (as Derby's
FileChannel.tryLock holds dbex.lck) and against a stale lock file; the bounded wait against a
holder that lets go after 2 s and one that never does; cdc-dbt's end of its JVM against a
stand-in process that exits after its stdin closes, and one that ignores it (all without
Spark). Then for real: the pytest session's own Spark has its Derby metastore booted, and
`cdc-dbt build` pointed at the same directory must stop within seconds, printing one line.
Time budget: about 25 s, most of it the last test's `cdc-dbt` start."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from cdc_simulator.project_copy import SAMPLES_DIR
from python_udfs.metastore_lock import (
    DEFAULT_WAIT_SECONDS,
    derby_database,
    held_by_another_process,
    wait_seconds,
    wait_until_released,
)
from python_udfs.session import end_process

PROJECT_DIR = Path(__file__).resolve().parents[2]
HOLD = """
import fcntl, os, sys, time
handle = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
print("held", flush=True)
time.sleep(float(sys.argv[2]) if len(sys.argv) > 2 else 60)
"""
# a stand-in for pyspark's gateway JVM: exits 2 s after its stdin ends (or, "ignore", never)
JVM = """
import sys, time
sys.stdin.read()
time.sleep(2 if sys.argv[1] == "exit" else 60)
"""


def hold(lock_file: Path, seconds: float = 60) -> subprocess.Popen[str]:
    """Another process holding the lock on lock_file (as a booted Derby does), for seconds."""
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(lock_file), str(seconds)],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        pytest.param(
            {
                "spark.hadoop.javax.jdo.option.ConnectionURL": (
                    "jdbc:derby:;databaseName=/data/x/metastore_db;create=true"
                )
            },
            Path("/data/x/metastore_db"),
            id="databaseName attribute",
        ),
        pytest.param(
            {
                "spark.hadoop.javax.jdo.option.ConnectionURL": "jdbc:derby:metastore_db",
                "spark.driver.extraJavaOptions": "-Xss4m -Dderby.system.home=/srv/home",
            },
            Path("/srv/home/metastore_db"),
            id="relative to derby.system.home",
        ),
        pytest.param(
            {"spark.hadoop.javax.jdo.option.ConnectionURL": "jdbc:postgresql://db/metastore"},
            None,
            id="PostgreSQL: not embedded",
        ),
        pytest.param(
            {"spark.hadoop.javax.jdo.option.ConnectionURL": "jdbc:derby://host:1527/ms"},
            None,
            id="Derby network server: not embedded",
        ),
        pytest.param(
            {
                "spark.hadoop.javax.jdo.option.ConnectionURL": "jdbc:derby:;databaseName=/m",
                "spark.hadoop.hive.metastore.uris": "thrift://ms:9083",
            },
            None,
            id="a metastore service",
        ),
        pytest.param({}, None, id="no metastore setting"),
    ],
)
def test_derby_database_is_read_from_the_settings(
    settings: dict[str, str], expected: Path | None
) -> None:
    assert derby_database(settings) == expected


def test_a_lock_held_by_another_process_is_seen_and_a_stale_one_is_not(tmp_path: Path) -> None:
    database = tmp_path / "metastore_db"
    database.mkdir()
    assert not held_by_another_process(database)  # no lock file: never booted
    holder = hold(database / "dbex.lck")
    try:
        assert held_by_another_process(database)
        assert held_by_another_process(database)  # probing takes nothing for good
    finally:
        holder.kill()
        holder.wait()
    assert (database / "dbex.lck").exists()
    assert not held_by_another_process(database)  # left behind by a dead process


@pytest.mark.spark
@pytest.mark.parametrize("command", ["build", "debug"])
def test_a_second_build_on_a_booted_metastore_stops_at_once(
    spark: Any, spark_local_dir: Path, command: str
) -> None:
    spark.sql("show databases").collect()  # the metastore is booted by this session
    environment = {
        **os.environ,
        "CDC_LOCAL_DIR": str(spark_local_dir),
        "CDC_WARM_UP": "0",
        # a holder that stays: given up on after the bound (default 20 s)
        "CDC_METASTORE_WAIT_SECONDS": "1",
    }
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "python_udfs.cli", command],
        cwd=SAMPLES_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    elapsed = time.monotonic() - started
    assert result.returncode == 3, result.stderr[-2000:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr[-2000:]
    assert "another process" in lines[0] and str(spark_local_dir) in lines[0]
    assert "still after 1 s (CDC_METASTORE_WAIT_SECONDS)" in lines[0]
    assert elapsed < 30


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        pytest.param({}, DEFAULT_WAIT_SECONDS, id="default"),
        pytest.param({"CDC_METASTORE_WAIT_SECONDS": ""}, DEFAULT_WAIT_SECONDS, id="empty"),
        pytest.param({"CDC_METASTORE_WAIT_SECONDS": "0"}, 0.0, id="no wait"),
        pytest.param({"CDC_METASTORE_WAIT_SECONDS": " 2.5 "}, 2.5, id="fractional"),
    ],
)
def test_wait_seconds(environ: dict[str, str], expected: float) -> None:
    assert wait_seconds(environ) == expected


@pytest.mark.parametrize("text", ["soon", "-1", "nan", "inf"])
def test_wait_seconds_must_be_a_number_of_seconds(text: str) -> None:
    with pytest.raises(ValueError, match="CDC_METASTORE_WAIT_SECONDS must be a number of"):
        wait_seconds({"CDC_METASTORE_WAIT_SECONDS": text})


def test_the_check_waits_for_a_holder_that_lets_go(tmp_path: Path) -> None:
    """The JVM of a command that has just ended holds Derby a few seconds more: waited for."""
    database = tmp_path / "metastore_db"
    database.mkdir()
    holder = hold(database / "dbex.lck", seconds=2)
    try:
        started = time.monotonic()
        assert wait_until_released(database, timeout=20)
        elapsed = time.monotonic() - started
    finally:
        holder.kill()
        holder.wait()
    assert 1.0 < elapsed < 10, elapsed


def test_the_check_gives_up_on_a_holder_that_stays(tmp_path: Path) -> None:
    database = tmp_path / "metastore_db"
    database.mkdir()
    holder = hold(database / "dbex.lck")
    try:
        started = time.monotonic()
        assert not wait_until_released(database, timeout=1)
        elapsed = time.monotonic() - started
        assert not wait_until_released(database, timeout=0)  # 0: no wait at all
    finally:
        holder.kill()
        holder.wait()
    assert 1.0 <= elapsed < 3, elapsed
    assert wait_until_released(database, timeout=0)  # nobody holds it: at once


@pytest.mark.parametrize(
    ("behaviour", "exits", "low", "high"),
    [
        pytest.param("exit", True, 1.5, 10, id="exits 2 s after stdin ends: waited for"),
        pytest.param("ignore", False, 1.0, 5, id="never exits: killed after the bound"),
    ],
)
def test_cdc_dbt_ends_its_jvm_bounded(behaviour: str, exits: bool, low: float, high: float) -> None:
    """stop_spark's last step: close the gateway's stdin, wait (bounded), else kill."""
    process = subprocess.Popen([sys.executable, "-c", JVM, behaviour], stdin=subprocess.PIPE)
    started = time.monotonic()
    try:
        assert end_process(process, timeout=1 if behaviour == "ignore" else 20) is exits
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    elapsed = time.monotonic() - started
    assert low <= elapsed < high, elapsed
    assert process.returncode is not None
    assert (process.returncode == 0) is exits


def test_a_wait_that_is_not_a_number_stops_cdc_dbt(tmp_path: Path) -> None:
    environment = {
        **os.environ,
        "CDC_LOCAL_DIR": str(tmp_path),
        "CDC_METASTORE_WAIT_SECONDS": "soon",
    }
    result = subprocess.run(
        [sys.executable, "-m", "python_udfs.cli", "build"],
        cwd=SAMPLES_DIR,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr.strip() == (
        "cdc-dbt: CDC_METASTORE_WAIT_SECONDS must be a number of seconds (0 or more), got 'soon'"
    )
    assert not (tmp_path / "metastore_db").exists()
