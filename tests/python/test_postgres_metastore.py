"""A shared Hive metastore on PostgreSQL: several Spark processes at once, nothing lost.

The embedded Derby default lets one process in. Target `postgres` points the metastore at
PostgreSQL (Debian's server and JDBC driver, `bin/install-system-packages`). Here a throw-away
PostgreSQL starts on a free loopback port in a temporary folder (python_udfs/local_postgres.py:
as root, the server runs as the OS user `postgres`), and, all as separate processes with one
shared warehouse:

1. `cdc-dbt run` of a tiny landed Qlik table into schema pg_a, alone (the first process
   creates the metastore's tables);
2. two `cdc-dbt run`s of the same files into schemas pg_b and pg_c at the same time, and a
   reader querying `pg_a.employees_as_of(point)` in a loop while they run;
3. every build succeeds without a lock error, every reader round equals the simulator's state,
   and pg_b and pg_c hold the same change log and points in time as pg_a.

A machine without PostgreSQL or the JDBC driver fails here, with the command that installs it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from interpreted import NO_CODEGEN_JAVA_OPTIONS
from loopback import free_port

from cdc_simulator.project_copy import SAMPLES_DIR
from cdc_simulator.qlik_ct import emit, write_parquet
from cdc_simulator.table_model import EMPLOYEES, Simulation, simulate
from python_udfs.local_postgres import LocalPostgres, MissingPrerequisite, jdbc_jar, server_binaries

pytestmark = [pytest.mark.e2e]

PROJECT_DIR = Path(__file__).resolve().parent.parent.parent
READER = Path(__file__).resolve().parent / "metastore_reader.py"
BUILD_SECONDS = 900
LOCK_ERROR = re.compile(
    r"deadlock|lock wait|could not obtain lock|another instance of derby|"
    r"could not serialize|already booted",
    re.IGNORECASE,
)
TABLES: dict[str, Any] = {
    "employees": {
        "source_system": "qlik_ct",
        "source_schema": "HR",
        "key_columns": ["employee_id"],
    },
}


@pytest.fixture(scope="module")
def postgres() -> Iterator[LocalPostgres]:
    try:
        jdbc_jar()
        server_binaries()
    except MissingPrerequisite as error:
        pytest.fail(f"{error} (bin/install-system-packages installs both)")
    # not under pytest's private tmp folder: the server's OS user must reach it
    data_dir = Path(tempfile.mkdtemp(prefix="cdc-pg-"))
    server = LocalPostgres(data_dir, free_port()).start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(data_dir, ignore_errors=True)


@pytest.fixture(scope="module")
def simulation() -> Simulation:
    return simulate(40, keys=12, seed=20261124, tables=(EMPLOYEES,))


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory, simulation: Simulation) -> dict[str, Path]:
    landing = tmp_path_factory.mktemp("pg_landing")
    write_parquet(
        landing, emit(simulation.changes, (EMPLOYEES,)), simulation.baseline, tables=(EMPLOYEES,)
    )
    return {"landing": landing, "warehouse": tmp_path_factory.mktemp("pg_warehouse")}


def environment(postgres: LocalPostgres, warehouse: Path, local_dir: Path) -> dict[str, str]:
    local_dir.mkdir(parents=True, exist_ok=True)
    return {
        **os.environ,
        "CDC_TARGET": "postgres",
        "CDC_METASTORE_URL": postgres.jdbc_url,
        "CDC_WAREHOUSE_DIR": str(warehouse),
        "CDC_LOCAL_DIR": str(local_dir),
        "CDC_WARM_UP": "0",
        "CDC_SPARK_MASTER": "local[1]",
        "CDC_SHUFFLE_PARTITIONS": "2",
        "CDC_DRIVER_MEMORY": "1g",
        "CDC_DRIVER_JAVA_OPTIONS": NO_CODEGEN_JAVA_OPTIONS,
        "DBT_TARGET_PATH": str(local_dir / "target"),
        "DBT_LOG_PATH": str(local_dir / "logs"),
    }


def run_command(schema: str, landing: Path) -> list[str]:
    dbt_vars = {
        "qlik_ct_landing": "files",
        "qlik_ct_landing_root": str(landing),
        "qlik_ct_landing_format": "parquet",
        # each build registers the landed files in a raw schema of its own
        "qlik_ct_schema": f"{schema}_raw",
        "cdc_tables": TABLES,
    }
    return [
        sys.executable,
        "-m",
        "python_udfs.cli",
        "run",
        "--vars",
        json.dumps(dbt_vars),
    ]


def start_build(
    postgres: LocalPostgres, shared: dict[str, Path], schema: str, folder: Path
) -> tuple[subprocess.Popen[str], Path]:
    log = folder / f"{schema}.log"
    env = {**environment(postgres, shared["warehouse"], folder / schema), "CDC_SCHEMA": schema}
    with log.open("w") as out:
        process = subprocess.Popen(
            run_command(schema, shared["landing"]),
            cwd=SAMPLES_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
    return process, log


def finish(process: subprocess.Popen[str], log: Path, seconds: float) -> tuple[int, str]:
    try:
        process.wait(seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        pytest.fail(f"{log.name}: still running after {seconds:.0f} s")
    return process.returncode, log.read_text(errors="replace")


def points(simulation: Simulation) -> list[str]:
    return [change.change_seq for change in simulation.changes[7::11]]


def as_of(schema: str, point: str) -> str:
    assert point.isdigit(), f"not a change sequence: {point!r}"  # pasted into SQL
    columns = ", ".join(EMPLOYEES.column_names)
    return f"select {columns} from {schema}.employees_as_of('{point}')"


def change_log(schema: str) -> str:
    """The change log, less when it was loaded and the raw schema it was read from (each
    build registers the landed files in a raw schema of its own)."""
    return f"select * except (loaded_at, raw_source) from {schema}.fct_cdc_changes"


def expected(simulation: Simulation, point: str) -> list[str]:
    state = simulation.state_at(point)["employees"]
    return sorted(
        json.dumps(dict(zip(EMPLOYEES.column_names, row, strict=True)), default=str, sort_keys=True)
        for row in state.values()
    )


@pytest.fixture(scope="module")
def concurrent(
    postgres: LocalPostgres,
    shared: dict[str, Path],
    simulation: Simulation,
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("pg_runs")
    first, first_log = start_build(postgres, shared, "pg_a", folder)
    code, output = finish(first, first_log, BUILD_SECONDS)
    assert code == 0, f"the first build failed:\n{output[-4000:]}"

    stop_file = folder / "builds_done"
    reader_log = folder / "reader.log"
    reader_env = environment(postgres, shared["warehouse"], folder / "reader")
    then = [change_log(schema) for schema in ("pg_a", "pg_b", "pg_c")] + [
        as_of(schema, point) for schema in ("pg_b", "pg_c") for point in points(simulation)
    ]
    with reader_log.open("w") as out:
        reader = subprocess.Popen(
            [
                sys.executable,
                str(READER),
                "--until",
                str(stop_file),
                "--max-seconds",
                str(BUILD_SECONDS),
                "--then",
                *then,
                "--",
                *(as_of("pg_a", point) for point in points(simulation)),
            ],
            cwd=SAMPLES_DIR,
            env=reader_env,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
    builds = [start_build(postgres, shared, schema, folder) for schema in ("pg_b", "pg_c")]
    started = time.time()
    results = {}
    for (process, log), schema in zip(builds, ("pg_b", "pg_c"), strict=True):
        results[schema] = finish(process, log, BUILD_SECONDS)
    builds_ended = time.time()
    stop_file.touch()
    code, output = finish(reader, reader_log, BUILD_SECONDS)
    assert code == 0, f"the reader failed:\n{output[-4000:]}"
    report = json.loads(output.strip().splitlines()[-1])
    return {
        "builds": results,
        "reader": report,
        "started": started,
        "builds_ended": builds_ended,
    }


def test_two_builds_at_once_succeed_without_lock_errors(concurrent: dict[str, Any]) -> None:
    for schema, (code, output) in concurrent["builds"].items():
        assert code == 0, f"{schema} failed:\n{output[-4000:]}"
        assert not LOCK_ERROR.search(output), f"{schema}: {LOCK_ERROR.search(output)}"
        assert "Completed successfully" in output, schema


def test_reader_reads_as_of_while_the_builds_run(
    concurrent: dict[str, Any], simulation: Simulation
) -> None:
    report = concurrent["reader"]
    assert report["errors"] == [], report["errors"]
    during = [r for r in report["rounds"] if r["ended_at"] < concurrent["builds_ended"]]
    assert during, "no reader round ended while the builds ran"
    wanted = [expected(simulation, point) for point in points(simulation)]
    for number, round_ in enumerate(report["rounds"]):
        assert round_["rows"] == wanted, f"round {number} differs from the simulator"


def test_concurrent_builds_lost_nothing(concurrent: dict[str, Any], simulation: Simulation) -> None:
    then = concurrent["reader"]["then"]
    log_a, log_b, log_c = then[:3]
    assert log_a, "empty change log"
    assert log_b == log_a and log_c == log_a, "a concurrent build's change log differs"
    wanted = [expected(simulation, point) for point in points(simulation)]
    assert then[3:] == wanted + wanted, "a concurrent build's points in time differ"
