"""A second process on the embedded Derby metastore stops at once with one line (README
"Running on a cluster"), instead of failing after minutes under thousands of log lines.

The probe is checked against a real fcntl lock held by another process (as Derby's
FileChannel.tryLock holds dbex.lck) and against a stale lock file; then for real: the pytest
session's own Spark has its Derby metastore booted, and `cdc-dbt build` pointed at the same
directory must stop within seconds, printing one line."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from python_udfs.metastore_lock import derby_database, held_by_another_process

PROJECT_DIR = Path(__file__).resolve().parents[2]
HOLD = """
import fcntl, os, sys, time
handle = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)
fcntl.lockf(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
print("held", flush=True)
time.sleep(60)
"""


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
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(database / "dbex.lck")], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
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
    environment = {**os.environ, "CDC_LOCAL_DIR": str(spark_local_dir), "CDC_WARM_UP": "0"}
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "python_udfs.cli", command],
        cwd=PROJECT_DIR,
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
    assert elapsed < 30
